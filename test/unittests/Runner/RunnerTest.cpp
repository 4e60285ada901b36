//===- RunnerTest.cpp - the Runner library, as an embedder calls it -------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Buffers, arguments and their files without a device; then a coroutine
// compiled and run under every scheduler on the first Vulkan device (with
// the Khronos validation layer), checked against values computed here, and
// a bounds-checked run whose violation is decoded with its source line.
//
//===----------------------------------------------------------------------===//

#include "../CoroIRTest.h"
#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h"
#include "CoroGPU/InitAllCoroGPU.h"
#include "CoroGPU/Runner/BufferIO.h"
#include "CoroGPU/Runner/Compile.h"
#include "CoroGPU/Runner/CompilePolicy.h"
#include "CoroGPU/Runner/HostKernels.h"
#include "CoroGPU/Runner/KernelABI.h"
#include "CoroGPU/Runner/Report.h"
#include "CoroGPU/Runner/Run.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <limits>

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::runner;
namespace rt = corogpu::runtime;

namespace {

/// CoroIRTest's context with everything the pipelines need.
class RunnerTest : public test::CoroIRTest {
protected:
  RunnerTest() {
    DialectRegistry registry;
    registerCoroGPU(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  MemRefType getMemRef(Type element) {
    return MemRefType::get({ShapedType::kDynamic}, element);
  }

  std::string message(llvm::Error error) {
    return llvm::toString(std::move(error));
  }
};

// data[i] = 3 * data[i] + k, with a suspension point between the load and
// the store, and a loop that suspends i % 3 times.
constexpr StringLiteral kKernel = R"mlir(
coro.func @scale(%k: i32, %data: memref<?xi32>) {
  %id = coro.id : index
  %x = memref.load %data[%id] : memref<?xi32>
  coro.suspend "loaded"
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %n = arith.remui %id, %c3 : index
  scf.for %i = %c0 to %n step %c1 {
    coro.suspend "spin"
  }
  %c3i = arith.constant 3 : i32
  %y = arith.muli %x, %c3i : i32
  %z = arith.addi %y, %k : i32
  memref.store %z, %data[%id] : memref<?xi32>
  coro.return
}

coro.func @overrun(%data: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %next = arith.addi %id, %c1 : index
  coro.suspend "late"
  %v = arith.index_cast %id : index to i32
  memref.store %v, %data[%next] : memref<?xi32>
  coro.return
}
)mlir";

TEST_F(RunnerTest, BufferSpecs) {
  Type f16 = Float16Type::get(&context), i64 = IntegerType::get(&context, 64);
  llvm::Expected<HostBuffer> iota =
      parseBufferSpec("i64:5:iota", getMemRef(i64), 0);
  ASSERT_TRUE(bool(iota)) << message(iota.takeError());
  EXPECT_EQ(iota->count, 5u);
  EXPECT_EQ(iota->getInteger(4), 4);

  llvm::Expected<HostBuffer> half =
      parseBufferSpec("f16:3:const=0.1", getMemRef(f16), 0);
  ASSERT_TRUE(bool(half)) << message(half.takeError());
  EXPECT_EQ(half->bytes.size(), 6u);
  // 0.1 rounded to the nearest half.
  EXPECT_DOUBLE_EQ(half->getElement(2), 0.0999755859375);

  // Narrow integers keep their width and sign.
  HostBuffer bytes = HostBuffer::getZeros(IntegerType::get(&context, 8), 3);
  bytes.setElement(1, -3);
  EXPECT_EQ(bytes.bytes.size(), 3u);
  EXPECT_EQ(bytes.getInteger(1), -3);
  EXPECT_EQ(bytes.getInteger(2), 0);

  llvm::Expected<HostBuffer> wrongType =
      parseBufferSpec("f32:3:zeros", getMemRef(i64), 2);
  ASSERT_FALSE(bool(wrongType));
  EXPECT_EQ(message(wrongType.takeError()),
            "buffer 'f32:3:zeros' has elements of type f32, but argument #2 "
            "is a memref of i64");
  llvm::Expected<HostBuffer> tooSmall =
      parseBufferSpec("i64:3:zeros", MemRefType::get({4}, i64), 0);
  ASSERT_FALSE(bool(tooSmall));
  EXPECT_NE(message(tooSmall.takeError()).find("static shape of 4"),
            std::string::npos);
}

TEST_F(RunnerTest, NumpyRoundTrip) {
  Type f32 = Float32Type::get(&context);
  HostBuffer buffer = HostBuffer::getZeros(f32, 7);
  for (size_t i = 0; i < buffer.count; ++i)
    buffer.setElement(i, 0.5 * double(i));
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("runner-test", dir));
  ASSERT_FALSE(bool(writeBufferFiles(dir, 3, buffer)));
  std::string path = (dir + "/buffer3.npy").str();

  llvm::Expected<HostBuffer> read = readNumpyFile(path, f32, 7);
  ASSERT_TRUE(bool(read)) << message(read.takeError());
  EXPECT_EQ(read->bytes, buffer.bytes);
  // The dtype and the element count are checked.
  llvm::Expected<HostBuffer> asInts =
      readNumpyFile(path, IntegerType::get(&context, 32), 7);
  ASSERT_FALSE(bool(asInts));
  EXPECT_NE(message(asInts.takeError()).find("dtype <f4"), std::string::npos);
  llvm::Expected<HostBuffer> shorter = readNumpyFile(path, f32, 6);
  ASSERT_FALSE(bool(shorter));
  EXPECT_NE(message(shorter.takeError()).find("holds 7 elements"),
            std::string::npos);
  llvm::sys::fs::remove_directories(dir);
}

TEST_F(RunnerTest, ScalarArguments) {
  Type i16 = IntegerType::get(&context, 16);
  llvm::Expected<rt::KernelArg> big =
      parseScalarArgument("70000", i16, 1, /*wideIndex=*/false);
  ASSERT_FALSE(bool(big));
  EXPECT_EQ(message(big.takeError()),
            "argument #1 is i16, but '70000' is not a value of that type (out "
            "of range for 16 bits)");
  // An index is 4 bytes for SPIR-V kernels and 8 for PTX ones.
  Type index = IndexType::get(&context);
  llvm::Expected<rt::KernelArg> narrow =
      parseScalarArgument("5", index, 0, /*wideIndex=*/false);
  llvm::Expected<rt::KernelArg> wide =
      parseScalarArgument("5", index, 0, /*wideIndex=*/true);
  ASSERT_TRUE(narrow && wide);
  EXPECT_EQ(narrow->scalar.size(), 4u);
  EXPECT_EQ(wide->scalar.size(), 8u);
  // A vec3 packed for SPIR-V, padded to 16 bytes for PTX.
  auto vec3 = VectorType::get({3}, Float32Type::get(&context));
  llvm::Expected<rt::KernelArg> packed =
      parseScalarArgument("1,2,3", vec3, 0, /*wideIndex=*/false);
  llvm::Expected<rt::KernelArg> padded =
      parseScalarArgument("1,2,3", vec3, 0, /*wideIndex=*/true);
  ASSERT_TRUE(packed && padded);
  EXPECT_EQ(packed->scalar.size(), 12u);
  EXPECT_EQ(padded->scalar.size(), 16u);
}

TEST_F(RunnerTest, CompareBuffers) {
  Type f32 = Float32Type::get(&context), i32 = IntegerType::get(&context, 32);
  HostBuffer a = HostBuffer::getZeros(f32, 20), b = a;
  HostBuffer ints = HostBuffer::getZeros(i32, 2), otherInts = ints;
  for (size_t i = 0; i < 20; ++i)
    b.setElement(i, i < 10 ? 1e-7 : 1.0);
  otherInts.setElement(1, 1);
  SmallVector<BufferMismatch> mismatches;
  // Within the tolerance below 10, off by 1 from 10 on; the second integer.
  EXPECT_EQ(compareBuffers({a, ints}, {b, otherInts}, 1e-6, mismatches,
                           /*maxReported=*/4),
            11u);
  ASSERT_EQ(mismatches.size(), 5u);
  EXPECT_EQ(mismatches[0].index, 10u);
  EXPECT_EQ(mismatches[0].expected, 1.0);
  EXPECT_EQ(mismatches[4].buffer, 1u);
  EXPECT_EQ(mismatches[4].index, 1u);

  // Non-finite values: an infinity matches itself, a NaN any NaN; neither
  // matches a finite value or the other infinity.
  double inf = std::numeric_limits<double>::infinity();
  double nan = std::numeric_limits<double>::quiet_NaN();
  HostBuffer special = HostBuffer::getZeros(f32, 6), same = special;
  const double got[] = {inf, -inf, nan, inf, nan, 1.0};
  const double want[] = {inf, -inf, nan, -inf, 1.0, nan};
  for (size_t i = 0; i < 6; ++i) {
    special.setElement(i, got[i]);
    same.setElement(i, want[i]);
  }
  mismatches.clear();
  EXPECT_EQ(compareBuffers({special}, {same}, 1e-5, mismatches, 4), 3u);
  ASSERT_EQ(mismatches.size(), 3u);
  EXPECT_EQ(mismatches[0].index, 3u);
}

// The schedulers' options from text change what they name and nothing
// else: a device's defaults stay where no option was given.
TEST(SchedulerOptionsTest, AppliesOnlyTheOptionsGiven) {
  DeviceTraits lavapipe;
  lavapipe.isCPU = true;
  lavapipe.subgroupSize = 8;
  lavapipe.limitsLoopIterations = true;
  SchedulerCompileOptions options = getDefaultCompileOptions(lavapipe);
  ASSERT_EQ(options.persistent.workgroupSize, 8);
  ASSERT_TRUE(options.persistent.boundSteps);

  std::unique_ptr<SchedulerPipelineOptions> given =
      SchedulerPipelineOptions::createFromString(
          "layout=aos persistent-steps=3 state-machine-steps=5 "
          "wavefront-design=classify");
  ASSERT_TRUE(given);
  given->applyTo(options);
  EXPECT_EQ(options.wavefront.layout, FrameArrayLayout::AoS);
  EXPECT_EQ(options.persistent.layout, FrameArrayLayout::AoS);
  EXPECT_EQ(options.persistent.stepsPerLaunch, 3);
  EXPECT_FALSE(options.persistent.boundSteps);
  EXPECT_EQ(options.stateMachine.stepsPerLaunch, 5);
  EXPECT_EQ(options.wavefront.design, WavefrontDesign::Classify);
  // Not given: the device's.
  EXPECT_EQ(options.persistent.workgroupSize, 8);
  EXPECT_EQ(options.persistent.batch, 32);
  EXPECT_TRUE(options.stateMachine.fallThrough);
  EXPECT_TRUE(options.terminationChecks);

  // A workgroup size given alone takes the default batch, not the device's.
  given = SchedulerPipelineOptions::createFromString(
      "persistent-workgroup-size=16 fall-through=false");
  ASSERT_TRUE(given);
  given->applyTo(options);
  EXPECT_EQ(options.persistent.workgroupSize, 16);
  EXPECT_EQ(options.persistent.batch, 256);
  EXPECT_FALSE(options.stateMachine.fallThrough);
  EXPECT_FALSE(options.persistent.fallThrough);

  EXPECT_FALSE(SchedulerPipelineOptions::createFromString("layout=diagonal"));
}

// One spelling of a kernel target everywhere: "spirv" or an NVIDIA chip
// ("sm_" digits, at most one suffix a or f); nothing else parses.
TEST(KernelTargetTest, ParsesWhatItPrints) {
  for (const char *name : {"spirv", "sm_90", "sm_90a", "sm_100f", "sm_20"}) {
    std::optional<KernelTarget> target = KernelTarget::parse(name);
    ASSERT_TRUE(target) << name;
    EXPECT_EQ(target->str(), name);
    EXPECT_EQ(target->isSPIRV(), std::string(name) == "spirv") << name;
  }
  EXPECT_EQ(KernelTarget::parse("sm_90")->getChip(), "sm_90");
  EXPECT_TRUE(KernelTarget::parse("spirv")->getChip().empty());
  EXPECT_EQ(*KernelTarget::parse("spirv"), KernelTarget::getSPIRV());
  EXPECT_NE(KernelTarget::getPTX("sm_90"), KernelTarget::getPTX("sm_80"));
  for (const char *name : {"", "SPIRV", "spir-v", "sm_", "sm_a", "sm_90af",
                           "sm90", "gfx90a", "sm_9x0"})
    EXPECT_FALSE(KernelTarget::parse(name)) << name;

  // A device's traits carry it; SPIR-V unless told.
  DeviceTraits traits;
  EXPECT_TRUE(traits.target.isSPIRV());
  llvm::Expected<DeviceTraits> cpu =
      parseDeviceTraits("cpu:8", KernelTarget::getPTX("sm_90"));
  ASSERT_TRUE(bool(cpu)) << llvm::toString(cpu.takeError());
  EXPECT_EQ(cpu->target, KernelTarget::getPTX("sm_90"));
}

TEST_F(RunnerTest, CompilesPTXWithoutADevice) {
  OwningOpRef<ModuleOp> module = parse(kKernel, "kernel.mlir");
  ASSERT_TRUE(module);
  FailureOr<CompiledCoroutine> compiled = compileCoroutine(
      *module, "scale", GPUScheduler::Wavefront, KernelTarget::getPTX("sm_90"));
  ASSERT_TRUE(succeeded(compiled));
  EXPECT_NE(compiled->image.find(".entry"), std::string::npos);
  ScheduledRun scheduled = getScheduledRun(*compiled);
  ASSERT_TRUE(scheduled.wavefront.has_value());
  EXPECT_EQ(scheduled.subroutineNames,
            (std::vector<std::string>{"entry", "loaded", "spin"}));
}

TEST_F(RunnerTest, HostKernelObjects) {
  context.getOrLoadDialect<plan::CoroPlanDialect>();
  Type f32 = Float32Type::get(&context);
  auto type = FunctionType::get(&context, {getMemRef(f32), f32}, {});
  auto kernel = plan::HostKernelAttr::get(
      &context, "blur", type, KernelTarget::getSPIRV(),
      DenseI32ArrayAttr::get(&context, {8, 1, 1}));
  std::string image("\x03\x02\x23\x07\0\0binary", 12);
  std::string object =
      encodeHostKernels(ArrayAttr::get(&context, {kernel, kernel}), image);
  llvm::Expected<HostKernels> read = decodeHostKernels(object, &context);
  ASSERT_TRUE(bool(read)) << message(read.takeError());
  EXPECT_EQ(read->image, image);
  ASSERT_EQ(read->descriptor.size(), 2u);
  EXPECT_EQ(read->descriptor[0], kernel);
  // Not ours, no end to the descriptor, a descriptor of something else.
  for (const std::string &bad :
       {std::string("BLOB"), std::string(kHostKernelsMagic) + "[]",
        std::string(kHostKernelsMagic) + "[1 : i32]" + std::string(1, '\0')}) {
    llvm::Expected<HostKernels> rejected = decodeHostKernels(bad, &context);
    ASSERT_FALSE(bool(rejected)) << bad;
    EXPECT_NE(message(rejected.takeError())
                  .find("not an object of host "
                        "kernels"),
              std::string::npos);
  }
}

/// The tests that run kernels: on the first Vulkan device, with the
/// validation layer, and skipped (saying why) where there is none; `module`
/// is kKernel.
class RunnerDeviceTest : public RunnerTest {
protected:
  void SetUp() override {
    rt::VulkanOptions options;
    options.validation = true;
    rt::Status status;
    device = rt::createVulkanDevice(options, status);
    if (!device)
      GTEST_SKIP() << "no Vulkan device: " << status.error;
    module = parse(kKernel, "kernel.mlir");
    ASSERT_TRUE(module);
  }

  std::unique_ptr<rt::Device> device;
  OwningOpRef<ModuleOp> module;
};

TEST_F(RunnerDeviceTest, RunsEverySchedulerOnVulkan) {
  rt::Status status;
  auto coroutine = module->lookupSymbol<FuncOp>("scale");
  ASSERT_TRUE(succeeded(prepareToRun(*module, coroutine, false)));

  constexpr uint32_t kInstances = 100;
  llvm::Expected<HostBuffer> data = parseBufferSpec(
      "i32:100:iota", cast<MemRefType>(coroutine.getArgumentTypes()[1]), 1);
  llvm::Expected<rt::KernelArg> k = parseScalarArgument(
      "7", coroutine.getArgumentTypes()[0], 0, /*wideIndex=*/false);
  ASSERT_TRUE(data && k);
  for (GPUScheduler scheduler :
       {GPUScheduler::Megakernel, GPUScheduler::StateMachine,
        GPUScheduler::Wavefront, GPUScheduler::Persistent}) {
    SCOPED_TRACE(getGPUSchedulerName(scheduler).str());
    FailureOr<CompiledCoroutine> compiled =
        compileCoroutine(*module, "scale", scheduler, device->getTarget());
    ASSERT_TRUE(succeeded(compiled));
    RunOptions options;
    options.wavefront.capacity = 32; // Refills, over several rounds.
    RunResult result;
    status = runCoroutine(*device, *compiled, {kInstances, 1, 1},
                          coroutine.getArgumentTypes(), {*k}, {*data}, options,
                          result);
    ASSERT_TRUE(status.ok()) << status.error;
    ASSERT_EQ(result.buffers.size(), 1u);
    for (uint32_t i = 0; i < kInstances; ++i)
      ASSERT_EQ(result.buffers[0].getInteger(i), 3 * int64_t(i) + 7)
          << "instance " << i;
    if (scheduler == GPUScheduler::Wavefront) {
      // Each instance runs entry and loaded once, spin i % 3 times.
      EXPECT_EQ(result.scheduled.wavefrontStats.instancesPerSubroutine,
                (std::vector<uint64_t>{100, 100, 99}));
      std::string stats;
      llvm::raw_string_ostream os(stats);
      printSchedulerStats(result.scheduled, result.timing.gpu, os);
      EXPECT_NE(stats.find("instances per subroutine: entry:100 loaded:100 "
                           "spin:99"),
                std::string::npos)
          << stats;
    }
  }
}

TEST_F(RunnerDeviceTest, RejectsArgumentsThatDoNotMatch) {
  rt::Status status;
  auto coroutine = module->lookupSymbol<FuncOp>("scale");
  ASSERT_TRUE(succeeded(prepareToRun(*module, coroutine, false)));
  FailureOr<CompiledCoroutine> compiled = compileCoroutine(
      *module, "scale", GPUScheduler::Megakernel, device->getTarget());
  ASSERT_TRUE(succeeded(compiled));
  ArrayRef<Type> types = coroutine.getArgumentTypes();
  auto k = rt::KernelArg::ofScalar<int32_t>(1);
  HostBuffer ints = HostBuffer::getZeros(IntegerType::get(&context, 32), 4);
  HostBuffer floats = HostBuffer::getZeros(Float32Type::get(&context), 4);
  RunResult result;
  auto run = [&](ArrayRef<rt::KernelArg> scalars, ArrayRef<HostBuffer> buffers,
                 std::array<uint32_t, 3> grid = {4, 1, 1}) {
    return runCoroutine(*device, *compiled, grid, types, scalars, buffers,
                        RunOptions(), result);
  };
  status = run({}, {ints});
  EXPECT_EQ(status.code, rt::StatusCode::InvalidInput);
  EXPECT_EQ(status.error, "@scale takes 1 buffer(s) and 1 scalar(s); 1 and 0 "
                          "were given");
  EXPECT_EQ(run({k}, {ints, ints}).code, rt::StatusCode::InvalidInput);
  status = run({k}, {floats});
  EXPECT_EQ(status.code, rt::StatusCode::InvalidInput);
  EXPECT_NE(status.error.find("argument #1 of @scale is memref<?xi32>"),
            std::string::npos)
      << status.error;
  EXPECT_EQ(run({k}, {ints}, {0, 1, 1}).code, rt::StatusCode::InvalidInput);
  EXPECT_EQ(runCoroutine(*device, CompiledCoroutine(), {4, 1, 1}, types, {k},
                         {ints}, RunOptions(), result)
                .code,
            rt::StatusCode::InvalidInput);
  EXPECT_TRUE(run({k}, {ints}).ok());
}

TEST_F(RunnerDeviceTest, ReportsAccessesOutOfBounds) {
  rt::Status status;
  auto coroutine = module->lookupSymbol<FuncOp>("overrun");
  SmallVector<Type> userTypes(coroutine.getArgumentTypes());
  FailureOr<BoundsCheckAttr> boundsCheck =
      prepareToRun(*module, coroutine, /*checkBounds=*/true);
  ASSERT_TRUE(succeeded(boundsCheck) && *boundsCheck);
  ASSERT_EQ(coroutine.getArgumentTypes().size(), userTypes.size() + 1);

  SmallVector<HostBuffer> buffers;
  buffers.push_back(
      HostBuffer::getZeros(IntegerType::get(&context, 32), /*count=*/4));
  llvm::Expected<HostBuffer> violations =
      createViolationBuffer(*boundsCheck, userTypes, buffers);
  ASSERT_TRUE(bool(violations)) << message(violations.takeError());
  buffers.push_back(std::move(*violations));

  FailureOr<CompiledCoroutine> compiled = compileCoroutine(
      *module, "overrun", GPUScheduler::StateMachine, device->getTarget());
  ASSERT_TRUE(succeeded(compiled));
  RunResult result;
  status =
      runCoroutine(*device, *compiled, {4, 1, 1}, coroutine.getArgumentTypes(),
                   {}, buffers, RunOptions(), result);
  ASSERT_TRUE(status.ok()) << status.error;
  // Instance 3 stores to index 4 of 4 elements: skipped and recorded.
  BoundsReport report = decodeViolations(result.buffers.back(), *boundsCheck);
  EXPECT_EQ(report.count, 1u);
  ASSERT_EQ(report.recorded.size(), 1u);
  const BoundsViolation &violation = report.recorded[0];
  EXPECT_EQ(violation.location, "kernel.mlir:26:3");
  EXPECT_EQ(violation.op, "memref.store");
  EXPECT_EQ(violation.index, 4);
  EXPECT_EQ(violation.size, 4u);
  EXPECT_EQ(violation.instance, 3u);
  EXPECT_EQ(violation.resumedAt, "late");
  for (int64_t i = 0; i < 3; ++i)
    EXPECT_EQ(result.buffers[0].getInteger(i + 1), i);
}

} // namespace
