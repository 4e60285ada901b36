//===- GPUKernels.cpp - building blocks for GPU schedulers ----------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/GPUKernels.h"
#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"
#include "corogpu/runtime/InstanceABI.h"
#include "corogpu/runtime/LoopLimitABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-gpu-kernels"

using namespace mlir;
using namespace mlir::coro;
namespace instance = corogpu::runtime::instance;

/// What no loop-count status word holds (see addLoopIterationCounter).
static constexpr uint32_t kOpaqueWord = 0xFFFFFFFEu;

gpu::GPUModuleOp mlir::coro::getOrCreateKernelModule(ModuleOp module,
                                                     RewriterBase &rewriter) {
  if (auto kernels = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName))
    return kernels;
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  rewriter.getUnitAttr());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToEnd(module.getBody());
  return gpu::GPUModuleOp::create(rewriter, module.getLoc(), kKernelModuleName);
}

int64_t mlir::coro::countSchedulerKernels(ModuleOp module) {
  auto kernels = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName);
  if (!kernels)
    return 0;
  return llvm::count_if(
      kernels.getOps<gpu::GPUFuncOp>(),
      [](gpu::GPUFuncOp kernel) { return kernel.isKernel(); });
}

gpu::GPUFuncOp mlir::coro::createKernel(gpu::GPUModuleOp kernels,
                                        StringRef name, TypeRange inputs,
                                        int64_t workgroupSize, Location loc,
                                        RewriterBase &rewriter) {
  OpBuilder::InsertionGuard insertion(rewriter);
  rewriter.setInsertionPointToEnd(kernels.getBody());
  auto kernel = gpu::GPUFuncOp::create(rewriter, loc, name,
                                       rewriter.getFunctionType(inputs, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  rewriter.getUnitAttr());
  kernel->setAttr(
      spirv::getEntryPointABIAttrName(),
      spirv::getEntryPointABIAttr(rewriter.getContext(),
                                  {static_cast<int32_t>(workgroupSize), 1, 1}));
  rewriter.setInsertionPointToEnd(&kernel.getBody().front());
  gpu::ReturnOp::create(rewriter, loc);
  LDBG() << "kernel @" << name << ": " << inputs.size() << " arguments, "
         << workgroupSize << " threads per workgroup";
  return kernel;
}

MemRefType mlir::coro::getInstanceStatusType(MLIRContext *context) {
  return MemRefType::get({instance::kNumStatusWords},
                         IntegerType::get(context, 32));
}

InstanceKernel mlir::coro::createInstanceKernel(gpu::GPUModuleOp kernels,
                                                StringRef name,
                                                TypeRange argTypes,
                                                int64_t workgroupSize,
                                                bool withStatus, Location loc,
                                                RewriterBase &rewriter) {
  SmallVector<Type> inputs(3, rewriter.getIndexType());
  llvm::append_range(inputs, argTypes);
  if (withStatus)
    inputs.push_back(getInstanceStatusType(rewriter.getContext()));
  gpu::GPUFuncOp kernel =
      createKernel(kernels, name, inputs, workgroupSize, loc, rewriter);
  Block &entry = kernel.getBody().front();
  ValueRange extents = entry.getArguments().take_front(3);

  rewriter.setInsertionPointToStart(&entry);
  Value ids[] = {gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::x),
                 gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::y),
                 gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::z)};
  Value inside;
  for (auto [id, extent] : llvm::zip_equal(ids, extents)) {
    Value below = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::ult, id, extent);
    inside =
        inside ? arith::AndIOp::create(rewriter, loc, inside, below) : below;
  }
  auto guard = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
  ValueRange args = entry.getArguments().drop_front(3);
  Value status;
  if (withStatus) {
    status = args.back();
    args = args.drop_back();
  }
  return {kernel, guard.thenBlock(), args,
          InstancePosition{ids[0], ids[1], ids[2], extents[0], extents[1]},
          status};
}

void mlir::coro::recordInstanceReturned(OpBuilder &builder, Location loc,
                                        Value status) {
  Value one = arith::ConstantIntOp::create(builder, loc, 1, 32);
  Value index = arith::ConstantIndexOp::create(builder, loc,
                                               instance::kInstancesReturned);
  memref::AtomicRMWOp::create(builder, loc, arith::AtomicRMWKind::addi, one,
                              status, index);
}

Value mlir::coro::addLoopIterationCounter(Block *body, Value buffer,
                                          int64_t word,
                                          RewriterBase &rewriter) {
  // What gallivm's limiter counts: every pass through a loop, the last one
  // (which only finds that the loop is done) included, so one per loop
  // entered and one per iteration.
  SmallVector<std::pair<Operation *, Block *>> loops;
  body->walk([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      loops.emplace_back(loop, loop.getBody());
    else if (auto loop = dyn_cast<scf::WhileOp>(op))
      loops.emplace_back(loop, loop.getAfterBody());
  });
  if (loops.empty())
    return {};
  Location loc = body->getParentOp()->getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(body);
  Type i32 = rewriter.getI32Type();
  auto createVariable = [&] {
    return memref::AllocaOp::create(rewriter, loc, MemRefType::get({1}, i32));
  };
  // `counter` counts the passes. After each loop, `ended` learns whether the
  // loop was to run on after its last pass: then the driver's limit ended
  // it, which leaves a loop without its exit condition saying so. An scf.for
  // records its next induction value against the bound at the end of its
  // body (in `continuing`, which all of them share: inner loops run before
  // it is written); an scf.while records its condition, in a variable of its
  // own (loops in its body run after it is written).
  Value counter = createVariable(), continuing = createVariable(),
        ended = createVariable();
  Value zeroIndex = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
  Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 32);
  for (Value variable : {counter, continuing, ended})
    memref::StoreOp::create(rewriter, loc, zero, variable, zeroIndex);
  auto load = [&](Value variable) {
    return memref::LoadOp::create(rewriter, loc, variable, zeroIndex);
  };
  auto store = [&](Value value, Value variable) {
    memref::StoreOp::create(rewriter, loc, value, variable, zeroIndex);
  };
  // A value the driver's compiler cannot know and that is false: the status
  // word never holds kOpaqueWord (counts stay far below it). It keeps an
  // scf.while's record from being folded: the record becomes a select
  // between the condition and the previous record, computed where the
  // condition is and carried to the next pass, so the compiler can neither
  // move it out of the loop nor rewrite the condition in it.
  Value opaque = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::eq,
      memref::LoadOp::create(
          rewriter, loc, buffer,
          ValueRange{arith::ConstantIndexOp::create(rewriter, loc, word)}),
      arith::ConstantIntOp::create(rewriter, loc, kOpaqueWord, 32));
  auto countPass = [&] {
    store(arith::AddIOp::create(rewriter, loc, load(counter), one), counter);
  };
  for (auto [loop, loopBody] : loops) {
    rewriter.setInsertionPoint(loop);
    countPass();
    rewriter.setInsertionPointToStart(loopBody);
    countPass();
    // Whether the loop was to run on after its last pass.
    Value record;
    if (auto forLoop = dyn_cast<scf::ForOp>(loop)) {
      record = continuing;
      // Before the loop: a loop that runs no iteration does not run on.
      rewriter.setInsertionPoint(loop);
      store(zero, record);
      rewriter.setInsertionPoint(loopBody->getTerminator());
      Value next = arith::AddIOp::create(
          rewriter, loc, forLoop.getInductionVar(), forLoop.getStep());
      Value more = arith::CmpIOp::create(rewriter, loc,
                                         forLoop.getUnsignedCmp()
                                             ? arith::CmpIPredicate::ult
                                             : arith::CmpIPredicate::slt,
                                         next, forLoop.getUpperBound());
      store(arith::ExtUIOp::create(rewriter, loc, i32, more), record);
    } else {
      // A record of its own: loops in its body run after it is made.
      {
        OpBuilder::InsertionGuard atStart(rewriter);
        rewriter.setInsertionPointToStart(body);
        record = createVariable();
      }
      rewriter.setInsertionPoint(loop);
      store(zero, record);
      auto condition = cast<scf::WhileOp>(loop).getConditionOp();
      rewriter.setInsertionPoint(condition);
      Value runOn =
          arith::ExtUIOp::create(rewriter, loc, i32, condition.getCondition());
      store(arith::SelectOp::create(rewriter, loc, opaque, load(record), runOn),
            record);
    }
    rewriter.setInsertionPointAfter(loop);
    store(arith::OrIOp::create(rewriter, loc, load(ended), load(record)),
          ended);
  }
  rewriter.setInsertionPoint(body->getTerminator());
  Value wasEnded = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ne, load(ended), zero);
  Value endedByLimit = arith::ConstantIntOp::create(
      rewriter, loc, corogpu::runtime::kLoopEndedByLimit, 32);
  Value value = arith::SelectOp::create(rewriter, loc, wasEnded, endedByLimit,
                                        load(counter));
  Value index = arith::ConstantIndexOp::create(rewriter, loc, word);
  memref::AtomicRMWOp::create(rewriter, loc, arith::AtomicRMWKind::maxu, value,
                              buffer, index);
  return counter;
}

/// Gives every `arith.select` of vectors on a scalar condition a vector
/// condition: SPIR-V has the scalar form only from 1.4 on.
static void splatSelectConditions(Operation *root, RewriterBase &rewriter) {
  SmallVector<arith::SelectOp> selects;
  root->walk([&](arith::SelectOp select) {
    if (isa<VectorType>(select.getType()) &&
        !isa<VectorType>(select.getCondition().getType()))
      selects.push_back(select);
  });
  for (arith::SelectOp select : selects) {
    rewriter.setInsertionPoint(select);
    auto type = cast<VectorType>(select.getType());
    Value condition = vector::BroadcastOp::create(
        rewriter, select.getLoc(), type.clone(rewriter.getI1Type()),
        select.getCondition());
    rewriter.modifyOpInPlace(
        select, [&] { select.getConditionMutable().assign(condition); });
  }
}

void mlir::coro::legalizeKernelsForTargets(gpu::GPUModuleOp kernels,
                                           RewriterBase &rewriter) {
  replacePoisonWithZero(kernels, rewriter);
  lowerIndexSwitchToIf(kernels, rewriter);
  splatSelectConditions(kernels, rewriter);
}

LogicalResult mlir::coro::checkSchedulerInput(ModuleOp module, StringRef pass,
                                              int64_t workgroupSize) {
  // (Devices allow 1024 threads or fewer; the plans hold 32 bits.)
  if (workgroupSize <= 0 || workgroupSize > INT32_MAX)
    return module.emitError(pass)
           << ": workgroup-size must be in [1, 2^31), got " << workgroupSize;
  if (failed(checkHandlesLowered(module, pass)))
    return failure();
  bool valid = true;
  SymbolTableCollection symbols;
  auto checkCalls = [&](Operation *root) {
    root->walk([&](func::CallOp call) {
      auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee || !callee.isExternal())
        return;
      call.emitOpError("calls @")
          << call.getCallee()
          << ", a declaration without a body: GPU kernels can only call "
             "functions defined in the module (which coro-inline-callables "
             "inlines)";
      valid = false;
    });
  };
  for (FuncOp coroutine : module.getOps<FuncOp>()) {
    for (auto [index, type] : llvm::enumerate(coroutine.getArgumentTypes())) {
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref || memref.getRank() <= 1 || memref.hasStaticShape())
        continue;
      coroutine.emitOpError("argument #")
          << index << " has type " << type
          << ": GPU kernels take memrefs of rank 1 (static or dynamic size) "
             "or of a static shape; pass it flattened, as "
          << MemRefType::get({ShapedType::kDynamic}, memref.getElementType());
      valid = false;
    }
    checkCalls(coroutine);
  }
  for (SplitOp split : module.getOps<SplitOp>())
    for (auto symbol : split.getSubroutines().getAsRange<FlatSymbolRefAttr>())
      if (Operation *subroutine =
              symbols.lookupSymbolIn(module, symbol.getAttr()))
        checkCalls(subroutine);
  return success(valid);
}

LogicalResult mlir::coro::rejectLaunchesOfSplitCoroutines(ModuleOp module,
                                                          StringRef scheduler,
                                                          StringRef hostSide,
                                                          StringRef instead) {
  FailureOr<llvm::StringMap<SmallVector<LaunchOp>>> launches =
      collectLaunchesOfSplitCoroutines(module);
  if (failed(launches))
    return failure();
  for (auto &entry : *launches) {
    if (entry.second.empty())
      continue;
    return entry.second.front().emitOpError()
           << "cannot be lowered by the " << scheduler
           << " scheduler: " << hostSide << "; " << instead;
  }
  return success();
}

LogicalResult mlir::coro::lowerSplitsWithPlans(ModuleOp module,
                                               ArrayRef<SplitOp> splits,
                                               LowerSplitFn lowerSplit) {
  IRRewriter rewriter(module.getContext());
  gpu::GPUModuleOp kernels = getOrCreateKernelModule(module, rewriter);
  SymbolTable symbols(module);
  for (SplitOp split : splits)
    if (failed(lowerSplit(split, symbols, kernels, rewriter)))
      return failure();
  legalizeKernelsForTargets(kernels, rewriter);
  return success();
}

LogicalResult mlir::coro::runSchedulerPass(ModuleOp module,
                                           const SchedulerPassOpening &opening,
                                           LowerModuleFn lower,
                                           Pass::Statistic &numKernels) {
  StringRef pass = opening.pass;
  bool onSplits = opening.splitCheck != SplitCheck::None;
  if (failed(checkSchedulerInput(module, pass, opening.workgroupSize)))
    return failure();
  if (opening.splitCheck == SplitCheck::BeforeOptions &&
      failed(checkSplitRan(module, pass)))
    return failure();
  if (opening.checkOptions && failed(opening.checkOptions()))
    return failure();
  if (const std::optional<LaunchRejection> &rejection =
          opening.rejectLaunches) {
    if (failed(rejectLaunchesOfSplitCoroutines(module, rejection->scheduler,
                                               rejection->hostSide,
                                               rejection->instead)))
      return failure();
  } else if (onSplits && failed(collectLaunchesOfSplitCoroutines(module))) {
    return failure();
  }
  if (opening.splitCheck == SplitCheck::AfterLaunches &&
      failed(checkSplitRan(module, pass)))
    return failure();

  SmallVector<SplitOp> splits(module.getOps<SplitOp>());
  if (onSplits && splits.empty())
    return success();
  int64_t kernelsBefore = countSchedulerKernels(module);
  LogicalResult lowered = lower(splits);
  numKernels += countSchedulerKernels(module) - kernelsBefore;
  return lowered;
}

void mlir::coro::lowerLaunchToGPU(LaunchOp launch, int64_t workgroupSize,
                                  bool withStatus, RewriterBase &rewriter) {
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value, 3> extents(launch.getGrid());
  extents.resize(3, one);
  Value size = arith::ConstantIndexOp::create(rewriter, loc, workgroupSize);
  Value groups = arith::CeilDivUIOp::create(rewriter, loc, extents[0], size);
  SmallVector<Value> operands(extents.begin(), extents.end());
  llvm::append_range(operands, launch.getArgs());
  Value status;
  if (withStatus) {
    status = memref::AllocOp::create(
        rewriter, loc, getInstanceStatusType(rewriter.getContext()));
    Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
    for (int64_t word = 0; word < instance::kNumStatusWords; ++word)
      memref::StoreOp::create(
          rewriter, loc, zero, status,
          ValueRange{arith::ConstantIndexOp::create(rewriter, loc, word)});
    operands.push_back(status);
  }
  auto kernel = SymbolRefAttr::get(
      rewriter.getStringAttr(kKernelModuleName),
      {FlatSymbolRefAttr::get(rewriter.getStringAttr(launch.getCallee()))});
  gpu::LaunchFuncOp::create(rewriter, loc, kernel,
                            gpu::KernelDim3{groups, extents[1], extents[2]},
                            gpu::KernelDim3{size, one, one},
                            /*dynamicSharedMemorySize=*/Value(), operands);
  if (status) {
    Value returnedIndex = arith::ConstantIndexOp::create(
        rewriter, loc, instance::kInstancesReturned);
    Value returned =
        memref::LoadOp::create(rewriter, loc, status, returnedIndex);
    Value instances = arith::MulIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, extents[0], extents[1]),
        extents[2]);
    Value expected = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getI32Type(), instances);
    Value all = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      returned, expected);
    cf::AssertOp::create(
        rewriter, loc, all,
        ("launch of @" + launch.getCallee() +
         ": not every instance returned (the kernel stopped early)")
            .str());
    memref::DeallocOp::create(rewriter, loc, status);
  }
  rewriter.eraseOp(launch);
}

int64_t mlir::coro::getWorkgroupArrayBytes(int64_t size) {
  return llvm::alignTo(4 * size, kWorkgroupArrayAlignment);
}
