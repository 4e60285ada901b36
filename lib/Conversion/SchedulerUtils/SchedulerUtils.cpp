//===- SchedulerUtils.cpp - building blocks for schedulers ----------------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/SchedulerUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;
using namespace mlir::coro;

Value InstancePosition::getId(OpBuilder &builder, Location loc,
                              std::optional<uint32_t> dim) const {
  if (dim)
    return *dim == 0 ? x : *dim == 1 ? y : z;
  // x + nx * (y + ny * z)
  Value plane = arith::MulIOp::create(builder, loc, ny, z);
  Value row = arith::AddIOp::create(builder, loc, y, plane);
  Value rows = arith::MulIOp::create(builder, loc, nx, row);
  return arith::AddIOp::create(builder, loc, x, rows);
}

void mlir::coro::lowerLaunchToLoops(
    LaunchOp launch, RewriterBase &rewriter,
    function_ref<void(OpBuilder &, Location, const InstancePosition &)>
        buildInstance) {
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value, 3> extents(launch.getGrid());
  extents.resize(3, one);

  auto zLoop = scf::ForOp::create(rewriter, loc, zero, extents[2], one);
  rewriter.setInsertionPointToStart(zLoop.getBody());
  auto yLoop = scf::ForOp::create(rewriter, loc, zero, extents[1], one);
  rewriter.setInsertionPointToStart(yLoop.getBody());
  auto xLoop = scf::ForOp::create(rewriter, loc, zero, extents[0], one);
  rewriter.setInsertionPointToStart(xLoop.getBody());
  InstancePosition position{xLoop.getInductionVar(), yLoop.getInductionVar(),
                            zLoop.getInductionVar(), extents[0], extents[1]};
  buildInstance(rewriter, loc, position);
  rewriter.eraseOp(launch);
}

void mlir::coro::lowerToMegakernelBody(
    Region &body, Block &entry, const InstancePosition &position,
    RewriterBase &rewriter, function_ref<void(ReturnOp)> replaceReturn) {
  Value linearId;
  auto getId = [&](Location loc, std::optional<uint32_t> dim) {
    if (dim)
      return position.getId(rewriter, loc, dim);
    if (!linearId) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&entry);
      linearId = position.getId(rewriter, loc, std::nullopt);
    }
    return linearId;
  };
  SmallVector<Operation *> ops;
  body.walk([&](Operation *op) {
    if (isa<IdOp, SuspendOp, PromiseOp, ReturnOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    if (auto id = dyn_cast<IdOp>(op))
      rewriter.replaceOp(id, getId(id.getLoc(), id.getDim()));
    else if (auto ret = dyn_cast<ReturnOp>(op))
      replaceReturn(ret);
    else
      rewriter.eraseOp(op);
  }
}

void mlir::coro::replacePoisonWithZero(Operation *root,
                                       RewriterBase &rewriter) {
  SmallVector<ub::PoisonOp> poisons;
  root->walk([&](ub::PoisonOp poison) { poisons.push_back(poison); });
  for (ub::PoisonOp poison : poisons) {
    rewriter.setInsertionPoint(poison);
    Type type = poison.getType();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        poison, type, cast<TypedAttr>(rewriter.getZeroAttr(type)));
  }
}

/// Moves the remaining cases of `switchOp`, from `caseIndex` on, and its
/// default into `region` (empty) as nested scf.ifs.
static void buildCaseChain(scf::IndexSwitchOp switchOp, unsigned caseIndex,
                           Region &region, RewriterBase &rewriter) {
  if (caseIndex == switchOp.getNumCases()) {
    rewriter.inlineRegionBefore(switchOp.getDefaultRegion(), region,
                                region.end());
    return;
  }
  Location loc = switchOp.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  Block *block = rewriter.createBlock(&region);
  Value caseValue = arith::ConstantIndexOp::create(
      rewriter, loc, switchOp.getCases()[caseIndex]);
  Value matches = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        switchOp.getArg(), caseValue);
  auto ifOp = scf::IfOp::create(rewriter, loc, switchOp.getResultTypes(),
                                matches, /*addThenBlock=*/false,
                                /*addElseBlock=*/false);
  rewriter.inlineRegionBefore(switchOp.getCaseRegions()[caseIndex],
                              ifOp.getThenRegion(), ifOp.getThenRegion().end());
  buildCaseChain(switchOp, caseIndex + 1, ifOp.getElseRegion(), rewriter);
  rewriter.setInsertionPointToEnd(block);
  scf::YieldOp::create(rewriter, loc, ifOp.getResults());
}

void mlir::coro::lowerIndexSwitchToIf(Operation *root, RewriterBase &rewriter) {
  SmallVector<scf::IndexSwitchOp> switches;
  root->walk([&](scf::IndexSwitchOp op) { switches.push_back(op); });
  // Post-order: nested switches are rewritten before the ones around them.
  for (scf::IndexSwitchOp switchOp : switches) {
    rewriter.setInsertionPoint(switchOp);
    auto wrapper = scf::ExecuteRegionOp::create(rewriter, switchOp.getLoc(),
                                                switchOp.getResultTypes());
    buildCaseChain(switchOp, 0, wrapper.getRegion(), rewriter);
    rewriter.replaceOp(switchOp, wrapper.getResults());
    // The chain is one block: inline it in place of the wrapper.
    Block &chain = wrapper.getRegion().front();
    auto yield = cast<scf::YieldOp>(chain.getTerminator());
    SmallVector<Value> results(yield.getOperands());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&chain, wrapper);
    rewriter.replaceOp(wrapper, results);
  }
}

/// Indices are kept as i64 in memory: SPIR-V has no memory layout for them.
static Type getStorageType(Type type) {
  return isa<IndexType>(type) ? IntegerType::get(type.getContext(), 64) : type;
}

SmallVector<MemRefType> FrameStorage::getSlotTypes(SplitOp split) {
  return llvm::map_to_vector(split.getSlots(), [](Attribute type) {
    return MemRefType::get({1},
                           getStorageType(cast<TypeAttr>(type).getValue()));
  });
}

/// The index of the single element of a frame memref.
static SmallVector<Value> getFieldIndex(OpBuilder &builder, Location loc) {
  return {arith::ConstantIndexOp::create(builder, loc, 0)};
}

FrameStorage FrameStorage::allocate(OpBuilder &builder, Location loc,
                                    SplitOp split) {
  FrameStorage storage;
  storage.token = memref::AllocaOp::create(
      builder, loc, MemRefType::get({1}, builder.getI32Type()));
  for (MemRefType type : getSlotTypes(split))
    storage.slots.push_back(memref::AllocaOp::create(builder, loc, type));
  return storage;
}

void mlir::coro::lowerFrameAccesses(Value frame, const FrameStorage &storage,
                                    const InstancePosition &position,
                                    RewriterBase &rewriter) {
  SmallVector<Operation *> users(frame.getUsers());
  for (Operation *user : users) {
    rewriter.setInsertionPoint(user);
    Location loc = user->getLoc();
    if (auto load = dyn_cast<FrameLoadOp>(user)) {
      Value value =
          memref::LoadOp::create(rewriter, loc, storage.slots[load.getSlot()],
                                 getFieldIndex(rewriter, loc));
      if (value.getType() != load.getType())
        value =
            arith::IndexCastOp::create(rewriter, loc, load.getType(), value);
      rewriter.replaceOp(load, value);
    } else if (auto store = dyn_cast<FrameStoreOp>(user)) {
      Value value = store.getValue();
      Type storageType = getStorageType(value.getType());
      if (storageType != value.getType())
        value = arith::IndexCastOp::create(rewriter, loc, storageType, value);
      rewriter.replaceOpWithNewOp<memref::StoreOp>(
          store, value, storage.slots[store.getSlot()],
          getFieldIndex(rewriter, loc));
    } else if (auto set = dyn_cast<FrameSetTargetOp>(user)) {
      Value token =
          arith::ConstantIntOp::create(rewriter, loc, set.getToken(), 32);
      rewriter.replaceOpWithNewOp<memref::StoreOp>(
          set, token, storage.token, getFieldIndex(rewriter, loc));
    } else if (auto id = dyn_cast<FrameIdOp>(user)) {
      rewriter.replaceOp(id, position.getId(rewriter, loc, id.getDim()));
    }
  }
}

void mlir::coro::buildStateMachineLoop(
    OpBuilder &builder, Location loc, Value token, unsigned numSubroutines,
    function_ref<void(OpBuilder &, Location, unsigned)> buildCase) {
  Value entry = arith::ConstantIntOp::create(builder, loc, kEntryToken, 32);
  memref::StoreOp::create(builder, loc, entry, token,
                          getFieldIndex(builder, loc));
  Value returned =
      arith::ConstantIntOp::create(builder, loc, kTerminatedToken, 32);
  SmallVector<int64_t> cases =
      llvm::to_vector(llvm::seq<int64_t>(0, numSubroutines));

  scf::WhileOp::create(
      builder, loc, TypeRange{}, ValueRange{},
      [&](OpBuilder &b, Location loc, ValueRange) {
        Value current =
            memref::LoadOp::create(b, loc, token, getFieldIndex(b, loc));
        Value running = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                              current, returned);
        scf::ConditionOp::create(b, loc, running, ValueRange{});
      },
      [&](OpBuilder &b, Location loc, ValueRange) {
        Value current =
            memref::LoadOp::create(b, loc, token, getFieldIndex(b, loc));
        Value index =
            arith::IndexCastOp::create(b, loc, b.getIndexType(), current);
        auto dispatch = scf::IndexSwitchOp::create(b, loc, TypeRange{}, index,
                                                   cases, cases.size());
        for (auto [caseToken, region] :
             llvm::enumerate(dispatch.getCaseRegions())) {
          OpBuilder::InsertionGuard guard(b);
          b.createBlock(&region);
          buildCase(b, loc, caseToken);
          scf::YieldOp::create(b, loc);
        }
        OpBuilder::InsertionGuard guard(b);
        b.createBlock(&dispatch.getDefaultRegion());
        scf::YieldOp::create(b, loc);
        b.setInsertionPointAfter(dispatch);
        scf::YieldOp::create(b, loc);
      });
}

FailureOr<llvm::StringMap<SmallVector<LaunchOp>>>
mlir::coro::collectLaunchesOfSplitCoroutines(ModuleOp module) {
  llvm::StringMap<SmallVector<LaunchOp>> launches;
  for (SplitOp split : module.getOps<SplitOp>())
    launches.try_emplace(split.getCoroutine());
  WalkResult result = module.walk([&](LaunchOp launch) {
    auto it = launches.find(launch.getCallee());
    if (it != launches.end()) {
      it->second.push_back(launch);
      return WalkResult::advance();
    }
    launch.emitOpError("launches @")
        << launch.getCallee()
        << ", which has no coro.split; run coro-split first";
    return WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return failure();
  return launches;
}
