//===- ProfileLanes.cpp - opt-in lane-utilization profile -----------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Counts, once per subgroup, the lanes active at every function entry,
// branch and loop header of the kernels a coroutine runs, whether their
// lanes diverged there, and the frame bytes each function moves, into a
// profile buffer (corogpu/runtime/LaneProfileABI.h) that the pass appends
// to the arguments. It runs after the split, on the subroutines, so that a
// site belongs to the kernel (wavefront) or subroutine that runs it; the
// mega-kernel runs the unsplit coroutine, which it instruments instead.
//
// The subgroup reductions run over the active lanes only: gpu.subgroup_reduce
// without `uniform`, which the dialect does not let anything move across
// control flow (it has effects), so that the count is that of the branch
// the lanes are in.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Transforms/Passes.h"

#include "corogpu/runtime/LaneProfileABI.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROPROFILELANES
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-profile-lanes"

using namespace mlir;
using namespace mlir::coro;
namespace lanes = corogpu::runtime::lanes;

/// The frame a coro.frame.load or coro.frame.store accesses.
static Value getFrameOperand(Operation *access) {
  if (auto load = dyn_cast<FrameLoadOp>(access))
    return load.getFrame();
  return cast<FrameStoreOp>(access).getFrame();
}

namespace {

/// Instruments the functions of one coroutine, which share one profile
/// buffer.
class LaneProfiler {
public:
  /// A profiler of the functions named `functionNames`, in order.
  LaneProfiler(MLIRContext *context, ArrayRef<StringRef> functionNames)
      : context(context) {
    for (StringRef name : functionNames)
      functions.push_back(StringAttr::get(context, name));
  }

  /// Appends the profile buffer to `function`'s arguments (at `argument`)
  /// and, unless `functionIndex` is empty, instruments its body as that
  /// function; `frameFields`, for subroutines, sizes their frame accesses.
  LogicalResult instrument(FunctionOpInterface function, unsigned argument,
                           std::optional<unsigned> functionIndex,
                           ArrayRef<FrameFieldAttr> frameFields);
  ArrayRef<Attribute> getSites() const { return sites; }
  ArrayRef<Attribute> getFunctions() const { return functions; }

private:
  /// Counts a visit of the current subgroup at a site of kind `kind`, at
  /// `builder`: its active lanes and, with `selector` (an i32 that tells
  /// the way each lane goes), whether they diverged.
  /// `existing`, if given, is a site recorded already, which this visit adds to
  /// (an scf.for's test before its first iteration and after each one).
  /// Returns the site.
  int64_t recordSite(OpBuilder &builder, Location loc, StringRef kind,
                     Value selector, std::optional<int64_t> existing = {});
  /// Adds the i32 `value` to the 64-bit counter at word `word`, carrying
  /// into its high word.
  void addToCounter(OpBuilder &builder, Location loc, uint64_t word,
                    Value value);
  /// Whether the current lane is the lowest active one of its subgroup.
  Value isFirstActiveLane(OpBuilder &builder, Location loc);
  Value getI32(OpBuilder &builder, Location loc, int64_t value) {
    return arith::ConstantIntOp::create(builder, loc, value, 32);
  }
  Value reduce(OpBuilder &builder, Location loc, gpu::AllReduceOperation kind,
               Value value) {
    return gpu::SubgroupReduceOp::create(builder, loc, value, kind,
                                         /*uniform=*/false);
  }

  MLIRContext *context;
  SmallVector<Attribute> sites, functions;
  /// The buffer and function being instrumented.
  Value buffer;
  unsigned currentFunction = 0;
};

} // namespace

Value LaneProfiler::isFirstActiveLane(OpBuilder &builder, Location loc) {
  Value lane = arith::IndexCastUIOp::create(
      builder, loc, builder.getI32Type(),
      gpu::LaneIdOp::create(builder, loc, nullptr));
  Value first = reduce(builder, loc, gpu::AllReduceOperation::MINUI, lane);
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, lane,
                               first);
}

void LaneProfiler::addToCounter(OpBuilder &builder, Location loc, uint64_t word,
                                Value value) {
  Value index = arith::ConstantIndexOp::create(builder, loc, word);
  Value old =
      memref::AtomicRMWOp::create(builder, loc, arith::AtomicRMWKind::addi,
                                  value, buffer, ValueRange{index});
  // The low word wrapped when the sum is below what it was.
  Value sum = arith::AddIOp::create(builder, loc, old, value);
  Value carry =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, sum, old);
  auto ifCarry = scf::IfOp::create(builder, loc, carry, /*withElse=*/false);
  OpBuilder inside = ifCarry.getThenBodyBuilder();
  Value high = arith::AddIOp::create(
      inside, loc, index, arith::ConstantIndexOp::create(inside, loc, 1));
  memref::AtomicRMWOp::create(inside, loc, arith::AtomicRMWKind::addi,
                              getI32(inside, loc, 1), buffer, ValueRange{high});
}

int64_t LaneProfiler::recordSite(OpBuilder &builder, Location loc,
                                 StringRef kind, Value selector,
                                 std::optional<int64_t> existing) {
  int64_t site = existing.value_or(sites.size());
  if (!existing)
    sites.push_back(ProfileSiteAttr::get(
        context, StringAttr::get(context, kind), currentFunction, loc));
  Value active = reduce(builder, loc, gpu::AllReduceOperation::ADD,
                        getI32(builder, loc, 1));
  Value divergent;
  if (selector) {
    Value low = reduce(builder, loc, gpu::AllReduceOperation::MINUI, selector);
    Value high = reduce(builder, loc, gpu::AllReduceOperation::MAXUI, selector);
    divergent = arith::ExtUIOp::create(
        builder, loc, builder.getI32Type(),
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, low,
                              high));
  }
  auto ifFirst =
      scf::IfOp::create(builder, loc, isFirstActiveLane(builder, loc), false);
  OpBuilder inside = ifFirst.getThenBodyBuilder();
  Value subgroupSize = arith::IndexCastUIOp::create(
      inside, loc, inside.getI32Type(),
      gpu::SubgroupSizeOp::create(inside, loc, nullptr));
  memref::StoreOp::create(inside, loc, subgroupSize, buffer,
                          ValueRange{arith::ConstantIndexOp::create(
                              inside, loc, lanes::kSubgroupSize)});
  uint64_t first = lanes::getSiteWord(functions.size(), site);
  addToCounter(inside, loc, first + lanes::kVisits, getI32(inside, loc, 1));
  addToCounter(inside, loc, first + lanes::kActiveLanes, active);
  if (divergent)
    addToCounter(inside, loc, first + lanes::kDivergentVisits, divergent);
  return site;
}

LogicalResult LaneProfiler::instrument(FunctionOpInterface function,
                                       unsigned argument,
                                       std::optional<unsigned> functionIndex,
                                       ArrayRef<FrameFieldAttr> frameFields) {
  Location loc = function.getLoc();
  Type bufferType =
      MemRefType::get({ShapedType::kDynamic}, IntegerType::get(context, 32));
  if (failed(function.insertArgument(argument, bufferType, {}, loc)))
    return failure();
  if (!functionIndex)
    return success();
  currentFunction = *functionIndex;
  Block &entry = function.getFunctionBody().front();
  buffer = entry.getArgument(argument);

  // Collected first: the instrumentation adds branches of its own.
  SmallVector<Operation *> branches, returns, frameAccesses;
  Value frame = frameFields.empty() ? Value() : entry.getArgument(0);
  function.getFunctionBody().walk([&](Operation *op) {
    if (isa<scf::IfOp, scf::IndexSwitchOp, scf::WhileOp, scf::ForOp>(op))
      branches.push_back(op);
    else if (op->hasTrait<OpTrait::ReturnLike>() &&
             op->getParentOp() == function.getOperation())
      returns.push_back(op);
    else if (isa<FrameLoadOp, FrameStoreOp>(op) && getFrameOperand(op) == frame)
      frameAccesses.push_back(op);
  });

  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  recordSite(builder, loc, "entry", Value());
  for (Operation *op : branches) {
    Location at = op->getLoc();
    StringRef kind = op->getName().getStringRef();
    auto toI32 = [&](Value condition) -> Value {
      return arith::ExtUIOp::create(builder, at, builder.getI32Type(),
                                    condition);
    };
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      builder.setInsertionPoint(op);
      recordSite(builder, at, kind, toI32(ifOp.getCondition()));
    } else if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op)) {
      // The case each lane takes (the default last), not its value: lanes
      // with different values may take the same case.
      builder.setInsertionPoint(op);
      Value taken = getI32(builder, at, switchOp.getNumCases());
      for (auto [number, value] : llvm::enumerate(switchOp.getCases())) {
        Value matches = arith::CmpIOp::create(
            builder, at, arith::CmpIPredicate::eq, switchOp.getArg(),
            arith::ConstantIndexOp::create(builder, at, value));
        taken = arith::SelectOp::create(builder, at, matches,
                                        getI32(builder, at, number), taken);
      }
      recordSite(builder, at, kind, taken);
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      // The condition runs before every iteration, the first included.
      scf::ConditionOp condition = whileOp.getConditionOp();
      builder.setInsertionPoint(condition);
      recordSite(builder, at, kind, toI32(condition.getCondition()));
    } else {
      // An scf.for's test, whether a lane runs an iteration: before the
      // first (lanes may skip the loop), then after each.
      auto forOp = cast<scf::ForOp>(op);
      auto runs = [&](Value iteration) -> Value {
        return arith::CmpIOp::create(builder, at,
                                     forOp.getUnsignedCmp()
                                         ? arith::CmpIPredicate::ult
                                         : arith::CmpIPredicate::slt,
                                     iteration, forOp.getUpperBound());
      };
      builder.setInsertionPoint(op);
      int64_t site =
          recordSite(builder, at, kind, toI32(runs(forOp.getLowerBound())));
      builder.setInsertionPointToStart(forOp.getBody());
      Value next = arith::AddIOp::create(builder, at, forOp.getInductionVar(),
                                         forOp.getStep());
      recordSite(builder, at, kind, toI32(runs(next)), site);
    }
  }

  if (frameFields.empty())
    return success();
  // Each lane sums the bytes it moves in a private array and the subgroup
  // adds them up when it returns.
  builder.setInsertionPointToStart(&entry);
  Value bytes = memref::AllocaOp::create(
      builder, loc, MemRefType::get({2}, builder.getI32Type()));
  Value zero = getI32(builder, loc, 0);
  for (int64_t which : {0, 1})
    memref::StoreOp::create(
        builder, loc, zero, bytes,
        ValueRange{arith::ConstantIndexOp::create(builder, loc, which)});
  for (Operation *access : frameAccesses) {
    bool isLoad = isa<FrameLoadOp>(access);
    int64_t slot = isLoad ? cast<FrameLoadOp>(access).getSlot()
                          : cast<FrameStoreOp>(access).getSlot();
    int64_t moved = slot >= 0 && slot < int64_t(frameFields.size())
                        ? 4 * frameFields[slot].getNumWords()
                        : 0;
    builder.setInsertionPointAfter(access);
    Location at = access->getLoc();
    Value which = arith::ConstantIndexOp::create(builder, at, isLoad ? 0 : 1);
    Value sum = arith::AddIOp::create(
        builder, at,
        memref::LoadOp::create(builder, at, bytes, ValueRange{which}),
        getI32(builder, at, moved));
    memref::StoreOp::create(builder, at, sum, bytes, ValueRange{which});
  }
  for (Operation *ret : returns) {
    builder.setInsertionPoint(ret);
    Location at = ret->getLoc();
    Value totals[2];
    for (int64_t which : {0, 1})
      totals[which] = reduce(
          builder, at, gpu::AllReduceOperation::ADD,
          memref::LoadOp::create(
              builder, at, bytes,
              ValueRange{arith::ConstantIndexOp::create(builder, at, which)}));
    auto ifFirst =
        scf::IfOp::create(builder, at, isFirstActiveLane(builder, at), false);
    OpBuilder inside = ifFirst.getThenBodyBuilder();
    uint64_t first = lanes::getFunctionWord(currentFunction);
    addToCounter(inside, at, first + lanes::kFrameBytesLoaded, totals[0]);
    addToCounter(inside, at, first + lanes::kFrameBytesStored, totals[1]);
  }
  return success();
}

namespace {

struct CoroProfileLanesPass
    : coro::impl::CoroProfileLanesBase<CoroProfileLanesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    SymbolTable symbols(module);
    llvm::StringMap<SplitOp> splits = getSplitsByCoroutine(module);
    SmallVector<NamedAttribute> profiles;
    if (auto existing =
            module->getAttrOfType<DictionaryAttr>(LaneProfileAttr::kAttrName))
      llvm::append_range(profiles, existing.getValue());

    for (FuncOp coroutine : llvm::to_vector(module.getOps<FuncOp>())) {
      if (coroutine.isExternal() ||
          coroutine->hasAttr(LaneProfileAttr::kAttrName) ||
          (!coroutines.empty() &&
           !llvm::is_contained(coroutines, coroutine.getSymName())))
        continue;
      // A caller would pass one argument too few.
      if (std::optional<SymbolTable::UseRange> uses =
              SymbolTable::getSymbolUses(coroutine, module)) {
        for (const SymbolTable::SymbolUse &use : *uses) {
          if (isa<SplitOp>(use.getUser()))
            continue;
          InFlightDiagnostic error =
              use.getUser()->emitError("coro-profile-lanes: @")
              << coroutine.getSymName()
              << " is launched, awaited or driven here, by code that would "
                 "not pass the profile buffer the pass adds to its "
                 "arguments; profile it with coro-run --profile-lanes";
          error.attachNote(coroutine.getLoc()) << "the coroutine";
          return signalPassFailure();
        }
      }
      SplitOp split = splits.lookup(coroutine.getSymName());
      SmallVector<func::FuncOp> subroutines;
      if (split) {
        FailureOr<SmallVector<func::FuncOp>> found =
            split.lookupSubroutines(symbols);
        if (failed(found))
          return signalPassFailure();
        subroutines = std::move(*found);
      }
      // The mega-kernel runs the coroutine's body even where it is split
      // (coro-resolve-handles splits the coroutines other code drives).
      bool bySubroutine = split && !megaKernel;
      if (!bySubroutine) {
        Operation *unstructured = nullptr;
        coroutine.walk([&](Operation *op) {
          if (!isa<cf::ControlFlowDialect>(op->getDialect()))
            return WalkResult::advance();
          unstructured = op;
          return WalkResult::interrupt();
        });
        if (unstructured) {
          unstructured->emitError("coro-profile-lanes: @")
              << coroutine.getSymName()
              << " has unstructured control flow here; run "
                 "coro-normalize-control-flow first";
          return signalPassFailure();
        }
      }

      unsigned argument = coroutine.getNumArguments();
      SmallVector<StringRef> names;
      if (bySubroutine)
        names = llvm::to_vector(split.getNames().getAsValueRange<StringAttr>());
      else
        names.push_back("mega-kernel");
      LaneProfiler profiler(context, names);
      // All of them take the buffer, so that they keep sharing a signature;
      // only what runs is instrumented.
      if (failed(profiler.instrument(
              coroutine, argument,
              bySubroutine ? std::nullopt : std::optional<unsigned>(0), {})))
        return signalPassFailure();
      SmallVector<FrameFieldAttr> fields;
      if (split)
        fields = split.getFrameFields();
      for (auto [index, subroutine] : llvm::enumerate(subroutines))
        // The frame comes first.
        if (failed(profiler.instrument(
                subroutine, argument + 1,
                bySubroutine ? std::optional<unsigned>(index) : std::nullopt,
                fields)))
          return signalPassFailure();
      auto profile = LaneProfileAttr::get(
          context, argument, ArrayAttr::get(context, profiler.getFunctions()),
          ArrayAttr::get(context, profiler.getSites()));
      coroutine->setAttr(LaneProfileAttr::kAttrName, profile);
      profiles.emplace_back(coroutine.getSymNameAttr(), profile);
      numSites += profiler.getSites().size();
      numFunctions += profiler.getFunctions().size();
      LDBG() << "@" << coroutine.getSymName() << ": "
             << profiler.getSites().size() << " sites in "
             << profiler.getFunctions().size() << " functions";
    }
    if (!profiles.empty())
      module->setAttr(LaneProfileAttr::kAttrName,
                      DictionaryAttr::get(context, profiles));
  }
};

} // namespace
