// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- consumer.cpp - use CoroGPU from another project --------------------===//
//
// Registers everything with the one call mlir::coro::registerCoroGPU, parses
// a generator, runs coro-expand-yield through a PassManager and checks that
// the yield became a promise of "__yielded_value" plus a suspension; then
// compiles a coroutine to PTX with the coro-to-ptx pipeline (which needs the
// extensions and the LLVM IR translations the call registers) and checks
// that a kernel binary came out; then builds the SPIR-V pipeline from C++
// for the wavefront scheduler and reads the plan it left (docs/tutorial.md,
// section 5); then runs that coroutine with the Runner library on the first
// Vulkan device, if there is one (section 6).
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h"
#include "CoroGPU/InitAllCoroGPU.h"
#include "CoroGPU/Pipelines/Pipelines.h"
#include "CoroGPU/Runner/BufferIO.h"
#include "CoroGPU/Runner/Compile.h"
#include "CoroGPU/Runner/CompilePolicy.h"
#include "CoroGPU/Runner/KernelABI.h"
#include "CoroGPU/Runner/Run.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

static const char *const kInput = R"mlir(
coro.func @count(%n: i32) yields i32 {
  %c0 = arith.constant 0 : i32
  coro.yield %c0 : i32
  coro.yield %n : i32
  coro.return
}
)mlir";

static const char *const kKernel = R"mlir(
coro.func @scale(%k: f32, %data: memref<?xf32>) {
  %id = coro.id : index
  %x = memref.load %data[%id] : memref<?xf32>
  coro.suspend "twice"
  %y = arith.mulf %x, %k : f32
  memref.store %y, %data[%id] : memref<?xf32>
  coro.return
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  mlir::coro::registerCoroGPU(registry);
  mlir::MLIRContext context(registry);

  auto module = mlir::parseSourceString<mlir::ModuleOp>(kInput, &context);
  if (!module) {
    llvm::errs() << "consumer: failed to parse the input\n";
    return 1;
  }
  mlir::PassManager pm(&context);
  mlir::coro::CoroExpandYieldOptions options;
  options.tagPrefix = "after_yield";
  pm.addNestedPass<mlir::coro::FuncOp>(
      mlir::coro::createCoroExpandYield(options));
  if (mlir::failed(pm.run(*module))) {
    llvm::errs() << "consumer: coro-expand-yield failed\n";
    return 1;
  }

  unsigned yields = 0, promises = 0;
  llvm::SmallVector<llvm::StringRef> tags;
  module->walk([&](mlir::Operation *op) {
    if (mlir::isa<mlir::coro::YieldOp>(op))
      ++yields;
    if (auto promise = mlir::dyn_cast<mlir::coro::PromiseOp>(op))
      promises += promise.getName() == mlir::coro::kYieldedValueField;
    if (auto suspend = mlir::dyn_cast<mlir::coro::SuspendOp>(op))
      tags.push_back(suspend.getTag().value_or(""));
  });
  module->print(llvm::outs());
  bool ok = yields == 0 && promises == 2 && tags.size() == 2 &&
            tags[0] == "after_yield0" && tags[1] == "after_yield1";

  // The whole PTX pipeline, by name, from the registry the call filled.
  auto kernel = mlir::parseSourceString<mlir::ModuleOp>(kKernel, &context);
  mlir::PassManager ptx(&context);
  if (!kernel ||
      mlir::failed(mlir::parsePassPipeline(
          "coro-to-ptx{scheduler=wavefront chip=sm_90}", ptx, llvm::errs())) ||
      mlir::failed(ptx.run(*kernel))) {
    llvm::errs() << "consumer: coro-to-ptx failed\n";
    return 1;
  }
  unsigned binaries = 0;
  kernel->walk([&](mlir::gpu::BinaryOp) { ++binaries; });
  llvm::outs() << "consumer: coro-to-ptx made " << binaries
               << " kernel binary\n";
  ok = ok && binaries == 1;

  // The SPIR-V pipeline built from C++, and the plan the wavefront
  // scheduler leaves for the runtime.
  auto wavefront = mlir::parseSourceString<mlir::ModuleOp>(kKernel, &context);
  mlir::PassManager spirv(&context);
  mlir::coro::buildToSPIRVPipeline(spirv, mlir::coro::GPUScheduler::Wavefront,
                                   mlir::coro::SchedulerCompileOptions());
  if (!wavefront || mlir::failed(spirv.run(*wavefront))) {
    llvm::errs() << "consumer: coro-to-spirv failed\n";
    return 1;
  }
  mlir::FailureOr<mlir::coro::plan::WavefrontPlanAttr> plan =
      mlir::coro::plan::lookupPlan<mlir::coro::plan::WavefrontPlanAttr>(
          *wavefront, "scale");
  if (mlir::failed(plan))
    return 1;
  llvm::outs() << "consumer: wavefront plan " << *plan << "\n";
  ok = ok && plan->getTokens() == 2 && plan->getWorkgroupSize() > 0;

  // Run it from C++ with the Runner library: compiled for the first Vulkan
  // device, under the wavefront scheduler, k = 2 and a buffer 0, 1, 2, ...
  namespace runner = mlir::coro::runner;
  corogpu::runtime::Status status;
  std::unique_ptr<corogpu::runtime::Device> device =
      corogpu::runtime::createVulkanDevice({}, status);
  if (!device) {
    llvm::outs() << "consumer: no Vulkan device (" << status.error
                 << "), the run is skipped\n";
  } else {
    auto program = mlir::parseSourceString<mlir::ModuleOp>(kKernel, &context);
    auto scale = program->lookupSymbol<mlir::coro::FuncOp>("scale");
    // The options coro-run would choose on this device.
    mlir::FailureOr<runner::CompiledCoroutine> compiled =
        runner::compileCoroutine(
            *program, "scale", mlir::coro::GPUScheduler::Wavefront,
            device->getTarget(),
            runner::getDefaultCompileOptions(runner::getDeviceTraits(*device)));
    // Arguments in the target's ABI, from text as coro-run's --arg and
    // --buffer take them (or built in C++: HostBuffer, KernelArg).
    llvm::Expected<corogpu::runtime::KernelArg> k =
        runner::parseScalarArgument("2.0", scale.getArgumentTypes()[0], 0,
                                    /*wideIndex=*/false);
    llvm::Expected<runner::HostBuffer> data = runner::parseBufferSpec(
        "f32:64:iota",
        mlir::cast<mlir::MemRefType>(scale.getArgumentTypes()[1]), 1);
    if (mlir::failed(compiled) || !k || !data) {
      llvm::errs() << "consumer: cannot prepare the run\n";
      return 1;
    }
    runner::RunResult result;
    status = runner::runCoroutine(*device, *compiled, {64, 1, 1},
                                  scale.getArgumentTypes(), {*k}, {*data},
                                  runner::RunOptions(), result);
    if (!status.ok()) {
      llvm::errs() << "consumer: the run failed: " << status.error << "\n";
      return 1;
    }
    bool doubled = true;
    for (size_t i = 0; i < 64; ++i)
      doubled = doubled && result.buffers[0].getElement(i) == 2.0 * i;
    llvm::outs() << "consumer: ran @scale on " << device->getName() << " in "
                 << result.scheduled.wavefrontStats.rounds
                 << " wavefront rounds, " << result.timing.gpu
                 << " ms of GPU time: "
                 << (doubled ? "every value doubled" : "WRONG VALUES") << "\n";
    // The runtime times the launches by default (RunOptions).
    ok = ok && doubled && result.timing.gpu > 0;
  }
  llvm::outs() << (ok ? "consumer: OK\n" : "consumer: FAILED\n");
  return ok ? 0 : 1;
}
