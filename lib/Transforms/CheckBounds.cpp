//===- CheckBounds.cpp - opt-in bounds checks of memory accesses ----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Tests the indices of every memref.load, memref.store and memref.atomic_rmw
// of a coroutine against the sizes of the memref; an access out of bounds
// is skipped and reported in a violation buffer
// (corogpu/runtime/BoundsCheckABI.h) that the pass appends to the
// coroutine's arguments. It runs on the coroutine before the split, so that
// every scheduler and backend carries the checks into its kernels.
//
// The checks cost little where nothing is out of bounds: an access adds
// compares and selects, and notes a violation in a small private array
// without a branch (drivers such as lavapipe run both sides of every
// branch, masked); the instance writes what it noted to the violation
// buffer, behind one branch, at its next suspension point or return.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/Utils/VectorAccesses.h"
#include "CoroGPU/Transforms/Passes.h"

#include "corogpu/runtime/BoundsCheckABI.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROCHECKBOUNDS
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-check-bounds"

using namespace mlir;
using namespace mlir::coro;
namespace bounds = corogpu::runtime::bounds;

namespace {

/// Instruments one coroutine.
class BoundsInstrumenter {
public:
  BoundsInstrumenter(FuncOp coroutine, unsigned records)
      : coroutine(coroutine), records(records),
        numArguments(coroutine.getNumArguments()) {}

  /// Instruments every access; fails with an error located at what it
  /// cannot check. Returns the number of accesses checked.
  FailureOr<unsigned> run();

private:
  /// The size of dimension `dim` of `memref`, an index, built at `builder`.
  FailureOr<Value> getDimensionSize(OpBuilder &builder, Operation *access,
                                    Value memref, unsigned dim);
  /// Replaces `access` by a test of its indices, the access where they are
  /// in bounds, and the note of a violation.
  LogicalResult instrument(Operation *access, Value memref, ValueRange indices,
                           unsigned site);
  /// Notes in the private state the violation `outOfBounds` (i1) of
  /// dimension `dimension` (index `index` against `size`) at `site`: counts
  /// it, and keeps it if it is the first since the last report.
  void noteViolation(OpBuilder &builder, Location loc, Value outOfBounds,
                     unsigned site, Value dimension, Value index, Value size);
  /// Adds the violations noted since the last report to the violation
  /// buffer's count, records the first if there is room, and clears them.
  void reportViolations(OpBuilder &builder, Location loc);
  /// How a site names the memref it accesses.
  std::string describeMemRef(Value memref);
  /// `value` as an argument of the coroutine, or null.
  BlockArgument getCoroutineArgument(Value value) {
    auto argument = dyn_cast<BlockArgument>(value);
    return argument && argument.getOwner() == &coroutine.getBody().front()
               ? argument
               : BlockArgument();
  }

  FuncOp coroutine;
  unsigned records;
  unsigned numArguments;
  Value violations;
  /// The instance's private state, memref<kNumStateWords x i32>.
  Value state;
  SmallVector<Attribute> sites;
};

/// The words of an instance's private state: a local array, so that the
/// split keeps it in the frame across suspensions like any other.
enum StateWord : int64_t {
  /// Where the instance last resumed: 0 at its start, k after the k-th
  /// suspension point.
  kResumePoint,
  /// Violations since the last report, and the first of them.
  kPendingCount,
  kPendingSite,
  kPendingDimension,
  kPendingIndexLow,
  kPendingIndexHigh,
  kPendingSize,
  kNumStateWords,
};

} // namespace

/// `value` as an i32 constant, at `builder`.
static Value getI32(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(builder, loc, value, 32);
}

static Value getIndex(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

/// The low and high 32 bits of index `value`, sign-extended to 64 bits,
/// computed in `index` and i32 alone: an i64 would make every checked kernel
/// need 64-bit integers (SPIR-V's Int64, `shaderInt64`) where `index` is 32
/// bits wide. Two arithmetic shifts by 16 give the high word on either
/// width (the sign where `index` is 32 bits) without shifting by its width.
static std::pair<Value, Value> splitIndex(OpBuilder &builder, Location loc,
                                          Value value) {
  Type i32 = builder.getI32Type();
  Value low = arith::IndexCastUIOp::create(builder, loc, i32, value);
  Value sixteen = getIndex(builder, loc, 16);
  Value shifted = arith::ShRSIOp::create(builder, loc, value, sixteen);
  shifted = arith::ShRSIOp::create(builder, loc, shifted, sixteen);
  Value high = arith::IndexCastUIOp::create(builder, loc, i32, shifted);
  return {low, high};
}

std::string BoundsInstrumenter::describeMemRef(Value memref) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (BlockArgument argument = getCoroutineArgument(memref))
    os << "argument " << argument.getArgNumber() << " (" << memref.getType()
       << ")";
  else if (memref.getDefiningOp<memref::AllocaOp>())
    os << "local array (" << memref.getType() << ")";
  else
    os << memref.getType();
  return text;
}

FailureOr<Value> BoundsInstrumenter::getDimensionSize(OpBuilder &builder,
                                                      Operation *access,
                                                      Value memref,
                                                      unsigned dim) {
  Location loc = access->getLoc();
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(dim))
    return getIndex(builder, loc, type.getDimSize(dim));
  if (BlockArgument argument = getCoroutineArgument(memref);
      argument && type.getRank() == 1) {
    // The host wrote the element count of the argument.
    Value word = getIndex(builder, loc,
                          bounds::kFirstArgumentSize + argument.getArgNumber());
    Value count = memref::LoadOp::create(builder, loc, violations, word);
    return Value(arith::IndexCastUIOp::create(builder, loc,
                                              builder.getIndexType(), count));
  }
  if (auto alloca = memref.getDefiningOp<memref::AllocaOp>())
    return alloca.getDynamicSizes()[type.getDynamicDimIndex(dim)];
  return access->emitError("coro-check-bounds: cannot tell the size of ")
         << memref.getType()
         << " here: bounds are checked for accesses to the coroutine's "
            "memref arguments, to local arrays (memref.alloca) and to "
            "memrefs of static shape";
}

void BoundsInstrumenter::noteViolation(OpBuilder &builder, Location loc,
                                       Value outOfBounds, unsigned site,
                                       Value dimension, Value index,
                                       Value size) {
  auto load = [&](StateWord word) {
    return memref::LoadOp::create(builder, loc, state,
                                  getIndex(builder, loc, word));
  };
  auto store = [&](StateWord word, Value value) {
    memref::StoreOp::create(builder, loc, value, state,
                            getIndex(builder, loc, word));
  };
  auto toI32 = [&](Value value) -> Value {
    return arith::IndexCastUIOp::create(builder, loc, builder.getI32Type(),
                                        value);
  };
  Value count = load(kPendingCount);
  Value first = arith::AndIOp::create(
      builder, loc, outOfBounds,
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, count,
                            getI32(builder, loc, 0)));
  auto [indexLow, indexHigh] = splitIndex(builder, loc, index);
  std::pair<StateWord, Value> fields[] = {
      {kPendingSite, getI32(builder, loc, site)},
      {kPendingDimension, toI32(dimension)},
      {kPendingIndexLow, indexLow},
      {kPendingIndexHigh, indexHigh},
      {kPendingSize, toI32(size)}};
  for (auto [word, value] : fields)
    store(word,
          arith::SelectOp::create(builder, loc, first, value, load(word)));
  store(kPendingCount,
        arith::AddIOp::create(builder, loc, count,
                              arith::ExtUIOp::create(builder, loc,
                                                     builder.getI32Type(),
                                                     outOfBounds)));
}

void BoundsInstrumenter::reportViolations(OpBuilder &builder, Location loc) {
  auto loadState = [&](OpBuilder &at, StateWord word) -> Value {
    return memref::LoadOp::create(at, loc, state, getIndex(at, loc, word));
  };
  Value pending = loadState(builder, kPendingCount);
  Value any = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                    pending, getI32(builder, loc, 0));
  auto ifAny = scf::IfOp::create(builder, loc, any);
  OpBuilder inside = ifAny.getThenBodyBuilder();
  auto add = [&](Value value, bounds::HeaderWord word) -> Value {
    return memref::AtomicRMWOp::create(inside, loc, arith::AtomicRMWKind::addi,
                                       value, violations,
                                       ValueRange{getIndex(inside, loc, word)});
  };
  add(pending, bounds::kViolationCount);
  Value count = add(getI32(inside, loc, 1), bounds::kRecordCount);
  memref::StoreOp::create(inside, loc, getI32(inside, loc, 0), state,
                          getIndex(inside, loc, kPendingCount));
  Value hasRoom = arith::CmpIOp::create(inside, loc, arith::CmpIPredicate::ult,
                                        count, getI32(inside, loc, records));
  auto ifRoom = scf::IfOp::create(inside, loc, hasRoom);
  OpBuilder record = ifRoom.getThenBodyBuilder();
  Value first = arith::AddIOp::create(
      record, loc,
      getIndex(record, loc, bounds::kFirstArgumentSize + numArguments),
      arith::MulIOp::create(record, loc,
                            arith::IndexCastUIOp::create(
                                record, loc, record.getIndexType(), count),
                            getIndex(record, loc, bounds::kRecordWords)));
  auto store = [&](bounds::RecordWord word, Value value) {
    Value at =
        arith::AddIOp::create(record, loc, first, getIndex(record, loc, word));
    memref::StoreOp::create(record, loc, value, violations, at);
  };
  auto [instanceLow, instanceHigh] = splitIndex(
      record, loc,
      IdOp::create(record, loc, record.getIndexType(), /*dim=*/nullptr));
  store(bounds::kSite, loadState(record, kPendingSite));
  store(bounds::kDimension, loadState(record, kPendingDimension));
  store(bounds::kResumePoint, loadState(record, kResumePoint));
  store(bounds::kInstanceLow, instanceLow);
  store(bounds::kInstanceHigh, instanceHigh);
  store(bounds::kIndexLow, loadState(record, kPendingIndexLow));
  store(bounds::kIndexHigh, loadState(record, kPendingIndexHigh));
  store(bounds::kSize, loadState(record, kPendingSize));
}

LogicalResult BoundsInstrumenter::instrument(Operation *access, Value memref,
                                             ValueRange indices,
                                             unsigned site) {
  Location loc = access->getLoc();
  OpBuilder builder(access);
  // Per dimension: in bounds (an unsigned compare also catches a negative
  // index), and the first dimension that is not, with its index and size.
  Value inBounds, failedDim, failedIndex, failedSize;
  for (int64_t dim = indices.size() - 1; dim >= 0; --dim) {
    FailureOr<Value> size = getDimensionSize(builder, access, memref, dim);
    if (failed(size))
      return failure();
    Value index = indices[dim];
    Value ok = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                     index, *size);
    Value dimValue = getIndex(builder, loc, dim);
    if (!inBounds) {
      inBounds = ok;
      failedDim = dimValue;
      failedIndex = index;
      failedSize = *size;
      continue;
    }
    inBounds = arith::AndIOp::create(builder, loc, ok, inBounds);
    failedDim = arith::SelectOp::create(builder, loc, ok, failedDim, dimValue);
    failedIndex = arith::SelectOp::create(builder, loc, ok, failedIndex, index);
    failedSize = arith::SelectOp::create(builder, loc, ok, failedSize, *size);
  }
  if (!inBounds) // A memref of rank 0 has no index to check.
    return success();

  Value outOfBounds = arith::XOrIOp::create(
      builder, loc, inBounds,
      arith::ConstantIntOp::create(builder, loc, 1, /*width=*/1));
  noteViolation(builder, loc, outOfBounds, site, failedDim, failedIndex,
                failedSize);

  // The zero a skipped load or atomic gives.
  SmallVector<Value> zeros;
  for (Type type : access->getResultTypes()) {
    auto zero = dyn_cast_or_null<TypedAttr>(builder.getZeroAttr(type));
    if (!zero)
      return access->emitError("coro-check-bounds: no zero of type ")
             << type << " to stand for a skipped access";
    zeros.push_back(arith::ConstantOp::create(builder, loc, zero));
  }

  // A load reads element 0 instead (BoundsCheckABI.h: every buffer has
  // room for one) and gives zero: no branch around it.
  auto type = cast<MemRefType>(memref.getType());
  if (auto load = dyn_cast<memref::LoadOp>(access);
      load && !llvm::is_contained(type.getShape(), 0)) {
    Value zero = getIndex(builder, loc, 0);
    SmallVector<Value> safeIndices;
    for (Value index : indices)
      safeIndices.push_back(
          arith::SelectOp::create(builder, loc, inBounds, index, zero));
    load.getIndicesMutable().assign(safeIndices);
    builder.setInsertionPointAfter(load);
    Value result =
        arith::SelectOp::create(builder, loc, inBounds, load, zeros.front());
    load.getResult().replaceAllUsesExcept(result, result.getDefiningOp());
    return success();
  }

  // Stores and atomics run only in bounds.
  auto check = scf::IfOp::create(
      builder, loc, inBounds,
      [&](OpBuilder &thenBuilder, Location loc) {
        Operation *clone = thenBuilder.clone(*access);
        scf::YieldOp::create(thenBuilder, loc, clone->getResults());
      },
      [&](OpBuilder &elseBuilder, Location loc) {
        scf::YieldOp::create(elseBuilder, loc, zeros);
      });
  access->replaceAllUsesWith(check.getResults());
  access->erase();
  return success();
}

FailureOr<unsigned> BoundsInstrumenter::run() {
  MLIRContext *context = coroutine.getContext();
  Location loc = coroutine.getLoc();
  Block &entry = coroutine.getBody().front();

  // Vector loads and stores are checked as the memref accesses they become
  // (element by element on a memref of scalars).
  IRRewriter rewriter(context);
  scalarizeVectorAccesses(coroutine, rewriter);

  // What to check, and what cannot be checked.
  SmallVector<Operation *> accesses, suspensions;
  WalkResult walk = coroutine.walk([&](Operation *op) {
    if (isa<func::CallOp, AwaitOp>(op)) {
      op->emitError("coro-check-bounds: run coro-inline-callables and "
                    "coro-inline-awaits first; the accesses of a callee "
                    "would not be checked");
      return WalkResult::interrupt();
    }
    if (isa<SuspendOp, YieldOp>(op)) {
      suspensions.push_back(op);
      return WalkResult::advance();
    }
    if (isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp>(op)) {
      accesses.push_back(op);
      return WalkResult::advance();
    }
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      Value value = effect.getValue();
      if (value && isa<MemRefType>(value.getType()) &&
          isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect())) {
        op->emitError("coro-check-bounds: cannot check the accesses of '")
            << op->getName()
            << "'; it checks memref.load, memref.store, memref.atomic_rmw, "
               "vector.load and vector.store";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  // The violation buffer, last argument.
  auto violationsType =
      MemRefType::get({ShapedType::kDynamic}, IntegerType::get(context, 32));
  if (failed(coroutine.insertArgument(numArguments, violationsType, {}, loc)))
    return failure();
  violations = entry.getArgument(numArguments);

  // The private state, zeroed; after each suspension point its number.
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  state = memref::AllocaOp::create(
      builder, loc, MemRefType::get({kNumStateWords}, builder.getI32Type()));
  for (int64_t word : {kResumePoint, kPendingCount})
    memref::StoreOp::create(builder, loc, getI32(builder, loc, 0), state,
                            getIndex(builder, loc, word));
  SmallVector<Attribute> resumePoints = {StringAttr::get(context, "entry")};
  for (auto [number, suspension] : llvm::enumerate(suspensions)) {
    // A tag, or the point's number in program order.
    std::string name = "#" + std::to_string(number + 1);
    if (auto suspend = dyn_cast<SuspendOp>(suspension);
        suspend && suspend.getTag())
      name = suspend.getTag()->str();
    else
      name += isa<YieldOp>(suspension) ? " (yield)" : " (anonymous)";
    resumePoints.push_back(StringAttr::get(context, name));
    builder.setInsertionPointAfter(suspension);
    Location at = suspension->getLoc();
    memref::StoreOp::create(builder, at, getI32(builder, at, number + 1), state,
                            getIndex(builder, at, kResumePoint));
  }
  // What an instance noted is reported when it suspends or returns.
  SmallVector<Operation *> reportPoints(suspensions);
  coroutine.walk([&](ReturnOp op) { reportPoints.push_back(op); });
  for (Operation *point : reportPoints) {
    builder.setInsertionPoint(point);
    reportViolations(builder, point->getLoc());
  }

  for (Operation *access : accesses) {
    Value memref;
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(access))
      memref = load.getMemRef(), indices = load.getIndices();
    else if (auto store = dyn_cast<memref::StoreOp>(access))
      memref = store.getMemRef(), indices = store.getIndices();
    else if (auto atomic = dyn_cast<memref::AtomicRMWOp>(access))
      memref = atomic.getMemref(), indices = atomic.getIndices();
    unsigned site = sites.size();
    sites.push_back(BoundsSiteAttr::get(
        context, StringAttr::get(context, access->getName().getStringRef()),
        StringAttr::get(context, describeMemRef(memref)), access->getLoc()));
    if (failed(instrument(access, memref, indices, site)))
      return failure();
  }
  coroutine->setAttr(BoundsCheckAttr::kAttrName,
                     BoundsCheckAttr::get(context, numArguments, records,
                                          ArrayAttr::get(context, resumePoints),
                                          ArrayAttr::get(context, sites)));
  LDBG() << "@" << coroutine.getSymName() << ": " << accesses.size()
         << " accesses checked, " << suspensions.size()
         << " resume points tracked";
  return accesses.size();
}

namespace {

struct CoroCheckBoundsPass
    : coro::impl::CoroCheckBoundsBase<CoroCheckBoundsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (records == 0) {
      module.emitError("coro-check-bounds: records must be at least 1");
      return signalPassFailure();
    }
    llvm::StringSet<> split = getSplitCoroutines(module);
    for (FuncOp coroutine : module.getOps<FuncOp>()) {
      // Instrumented already: its violation buffer is in place.
      if (coroutine.isExternal() ||
          coroutine->hasAttr(BoundsCheckAttr::kAttrName) ||
          (!coroutines.empty() &&
           !llvm::is_contained(coroutines, coroutine.getSymName())))
        continue;
      // The code that driven frames run is inlined by coro-resolve-handles,
      // and checked only if that ran first: say so rather than miss its
      // accesses.
      if (Operation *driver = findFrameDriver(coroutine)) {
        driver->emitError("coro-check-bounds: @")
            << coroutine.getSymName()
            << " drives frames; run coro-resolve-handles first, which "
               "inlines the code they run here, so that it is checked too "
               "(coro-run --check-bounds does)";
        return signalPassFailure();
      }
      // Its split would ignore the checks.
      if (split.contains(coroutine.getSymName())) {
        coroutine.emitError("coro-check-bounds: @")
            << coroutine.getSymName()
            << " is split already (coro.handle or coro.for_each ops drive "
               "it); check the coroutine that drives it";
        return signalPassFailure();
      }
      // A caller would pass one argument too few.
      if (std::optional<SymbolTable::UseRange> uses =
              SymbolTable::getSymbolUses(coroutine, module);
          uses && !uses->empty()) {
        Operation *user = uses->begin()->getUser();
        if (getDrivenCoroutine(user)) {
          user->emitError("coro-check-bounds: @")
              << coroutine.getSymName()
              << " is driven here, by code that would not pass the "
                 "violation buffer; check the coroutine that drives it "
                 "(after coro-resolve-handles, its code is inlined there)";
          return signalPassFailure();
        }
        InFlightDiagnostic error =
            user->emitError("coro-check-bounds: @")
            << coroutine.getSymName()
            << " is launched or awaited here, and would miss the violation "
               "buffer the pass adds to its arguments; run it with coro-run "
               "--check-bounds, or after coro-inline-awaits";
        error.attachNote(coroutine.getLoc()) << "the coroutine";
        return signalPassFailure();
      }
      FailureOr<unsigned> checked =
          BoundsInstrumenter(coroutine, records).run();
      if (failed(checked))
        return signalPassFailure();
      numChecked += *checked;
    }
  }
};

} // namespace
