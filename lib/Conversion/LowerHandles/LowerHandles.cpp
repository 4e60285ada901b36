//===- LowerHandles.cpp - resolve the frames user code drives -------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The `coro.handle.*` ops let any code instantiate a coroutine's frame and
// resume its subroutines (paper Sec. 4.1.3 and 4.1.4). Once the coroutine is
// split and its frame materialized, each handle becomes a thread-private
// frame (`memref<N x i32>`, as the state machine's) and each op what it
// means on that frame:
//
//   %h = coro.handle.create @f[%i]        ==>  frame = alloca, zeroed;
//                                              frame[coro_id] = %i
//   coro.handle.resume %h(%args)          ==>  scf.index_switch frame[token]
//                                                case t: <body of subroutine
//                                                         t of @f>
//   coro.handle.promise %h["r"] : i32     ==>  field "r" of the frame
//
// The subroutines are inlined at each resumption (kernels need no calls),
// their frame accesses lowered onto the handle's frame. The coroutines stay:
// a runtime may still launch them by name.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Conversion/SchedulerUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/DebugLog.h"

#include <cstdlib>

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROLOWERHANDLES
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-lower-handles"

using namespace mlir;
using namespace mlir::coro;

/// A bug to seed, for tests of the references: with the environment variable
/// COROGPU_TEST_SEED_BUG=vector-yield, the one of issue 42, a loop over a
/// generator that yields a vector never running its body, in every scheduler
/// and the mega-kernel alike (so --check cannot see it). An environment
/// variable rather than an option: the pass is linked into plugins too,
/// where a second registration of a command-line option aborts.
static bool isVectorYieldBugSeeded() {
  const char *seeded = std::getenv("COROGPU_TEST_SEED_BUG");
  return seeded && StringRef(seeded) == "vector-yield";
}

namespace {

/// The ops that create a handle, and those that take one.
bool isHandleProducer(Operation *op) {
  return isa<HandleCreateOp, HandleLoadOp>(op);
}
bool isHandleConsumer(Operation *op) {
  return isa<HandleResumeOp, HandleTargetOp, HandleDoneOp, HandleIdOp,
             HandlePromiseOp, HandleStoreOp>(op);
}

/// A split coroutine, as its handles see it.
struct HandleTarget {
  SplitOp split;
  SmallVector<func::FuncOp> subroutines;
};

struct CoroLowerHandlesPass
    : coro::impl::CoroLowerHandlesBase<CoroLowerHandlesPass> {
  using Base::Base;

  void runOnOperation() override {
    module = getOperation();
    symbols.emplace(module);
    // A pass instance runs once per round of coro-resolve-handles: what it
    // found in the last round may have changed.
    targets.clear();
    splits = getSplitsByCoroutine(module);
    SmallVector<ForEachOp> loops;
    module.walk([&](ForEachOp loop) {
      if (isLowerable(loop.getGeneratorAttr()))
        loops.push_back(loop);
    });
    for (ForEachOp loop : loops)
      if (failed(lowerForEach(loop)))
        return signalPassFailure();
    if (failed(checkHandleUses()) || failed(checkNoDriveCycle()))
      return signalPassFailure();
    // Inlined subroutines may drive other coroutines' frames: lower until
    // no handle is left (the drive graph has no cycle, so this ends).
    while (true) {
      SmallVector<Operation *> producers;
      SmallVector<HandleFrameWordsOp> sizes;
      module.walk([&](Operation *op) {
        if (!isLowerable(getDrivenCoroutine(op)))
          return;
        if (isHandleProducer(op))
          producers.push_back(op);
        else if (auto size = dyn_cast<HandleFrameWordsOp>(op))
          sizes.push_back(size);
      });
      if (producers.empty() && sizes.empty())
        break;
      for (HandleFrameWordsOp size : sizes)
        if (failed(lowerFrameWords(size)))
          return signalPassFailure();
      for (Operation *producer : producers)
        if (failed(lowerHandle(producer)))
          return signalPassFailure();
    }
  }

  /// A loop over a generator's values becomes a handle driven in an
  /// scf.while, which carries whether the body asked to stop:
  ///
  ///   %g = coro.handle.create @gen[%instance]
  ///   scf.while (%stop = false, %carried...) {
  ///     %go = %stop ? false : (resume %g; not done %g)
  ///     scf.condition(%go) %stop, %carried...
  ///   } do {
  ///     %value = coro.handle.promise %g["__yielded_value"]
  ///     <body>; scf.yield !%continue, %next...
  ///   }
  LogicalResult lowerForEach(ForEachOp loop) {
    FailureOr<HandleTarget *> target = getTarget(loop, loop.getGeneratorAttr());
    if (failed(target))
      return failure();
    // A generator that never yields has no yielded value: the body never
    // runs, and the generator runs to its end. (A vector's value is in the
    // fields of its lanes.)
    SmallVector<FrameFieldAttr> yielded =
        (*target)->split.getPromiseFields(kYieldedValueField);
    bool yields = !yielded.empty();
    if (yielded.size() > 1 && isVectorYieldBugSeeded())
      yields = false;
    OpBuilder builder(loop);
    Location loc = loop.getLoc();
    auto handleType =
        HandleType::get(loop.getContext(), loop.getGeneratorAttr());
    Value handle = HandleCreateOp::create(
        builder, loc, handleType, loop.getGeneratorAttr(), loop.getInstance());
    Value falseValue = arith::ConstantIntOp::create(builder, loc, 0, 1);
    Value trueValue = arith::ConstantIntOp::create(builder, loc, 1, 1);
    SmallVector<Value> inits = {falseValue};
    llvm::append_range(inits, loop.getInits());
    TypeRange types = ValueRange(inits).getTypes();
    Block &body = loop.getBody().front();
    Type valueType = body.getArgument(0).getType();
    SmallVector<Value> args(loop.getArgs());
    auto whileLoop = scf::WhileOp::create(
        builder, loc, types, inits,
        [&](OpBuilder &b, Location loc, ValueRange carried) {
          auto next = scf::IfOp::create(
              b, loc, carried.front(),
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(b, loc, falseValue);
              },
              [&](OpBuilder &b, Location loc) {
                HandleResumeOp::create(b, loc, handle, Value(), StringAttr(),
                                       args);
                Value done =
                    HandleDoneOp::create(b, loc, b.getI1Type(), handle);
                scf::YieldOp::create(
                    b, loc,
                    ValueRange{arith::XOrIOp::create(b, loc, done, trueValue)});
              });
          scf::ConditionOp::create(b, loc, next.getResult(0), carried);
        },
        [&](OpBuilder &b, Location loc, ValueRange carried) {
          if (!yields) {
            scf::YieldOp::create(b, loc, carried);
            return;
          }
          Value value = HandlePromiseOp::create(
              b, loc, valueType, handle, b.getStringAttr(kYieldedValueField));
          IRMapping mapping;
          mapping.map(body.getArgument(0), value);
          mapping.map(body.getArguments().drop_front(), carried.drop_front());
          for (Operation &op : body.without_terminator())
            b.clone(op, mapping);
          auto yield = cast<ForEachYieldOp>(body.getTerminator());
          SmallVector<Value> next = {arith::XOrIOp::create(
              b, loc, mapping.lookupOrDefault(yield.getGoOn()), trueValue)};
          for (Value carriedValue : yield.getValues())
            next.push_back(mapping.lookupOrDefault(carriedValue));
          scf::YieldOp::create(b, loc, next);
        });
    loop.replaceAllUsesWith(whileLoop.getResults().drop_front());
    loop.erase();
    ++numLoops;
    return success();
  }

  /// A handle lives in thread-private memory: only the handle ops may take
  /// one, and no block argument or other op may carry one.
  LogicalResult checkHandleUses() {
    WalkResult result =
        module.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
          for (Region &region : op->getRegions())
            for (Block &block : region)
              for (BlockArgument argument : block.getArguments())
                if (isa<HandleType>(argument.getType()))
                  return op->emitOpError("takes a ")
                         << argument.getType()
                         << " as a block argument: a handle can only be used "
                            "where it is created, by coro.handle ops";
          bool handleOperand =
              llvm::any_of(op->getOperandTypes(),
                           [](Type type) { return isa<HandleType>(type); });
          bool handleResult = llvm::any_of(op->getResultTypes(), [](Type type) {
            return isa<HandleType>(type);
          });
          if ((handleOperand && !isHandleConsumer(op)) ||
              (handleResult && !isHandleProducer(op)))
            return op->emitOpError(
                "cannot take or give a !coro.handle: only "
                "coro.handle ops can (a handle is a frame in "
                "thread-private memory)");
          return WalkResult::advance();
        });
    return failure(result.wasInterrupted());
  }

  /// Whether this run lowers the ops that drive `coroutine`: all of them,
  /// or with `skip-unsplit` those whose coroutine is split.
  bool isLowerable(FlatSymbolRefAttr coroutine) {
    if (!coroutine)
      return false;
    return !skipUnsplit || splits.contains(coroutine.getValue());
  }

  /// The coroutine a handle op names, split; a located error if it is not.
  FailureOr<HandleTarget *> getTarget(Operation *op,
                                      FlatSymbolRefAttr coroutine) {
    auto [it, inserted] = targets.try_emplace(coroutine.getValue().str());
    if (!inserted) {
      if (!it->second.split)
        return failure();
      return &it->second;
    }
    it->second.split = splits.lookup(coroutine.getValue());
    if (!it->second.split)
      return op->emitOpError("drives coroutine ")
             << coroutine
             << ", which is not split: run coro-resolve-handles (it splits "
                "the coroutines that code drives, innermost first, and "
                "lowers their handles)";
    FailureOr<SmallVector<func::FuncOp>> subroutines =
        it->second.split.lookupSubroutines(*symbols);
    if (failed(subroutines)) {
      it->second.split = nullptr;
      return failure();
    }
    it->second.subroutines = std::move(*subroutines);
    return &it->second;
  }

  /// A coroutine whose subroutines drive frames of itself, directly or
  /// through others, would inline forever (and a frame cannot hold one of
  /// its own kind).
  LogicalResult checkNoDriveCycle() {
    // coroutine -> the coroutines its subroutines drive, and where.
    llvm::StringMap<SmallVector<std::pair<StringRef, Operation *>>> drives;
    for (SplitOp split : module.getOps<SplitOp>()) {
      auto &edges = drives[split.getCoroutine()];
      for (Attribute name : split.getSubroutines()) {
        auto subroutine = symbols->lookup<func::FuncOp>(
            cast<FlatSymbolRefAttr>(name).getValue());
        if (!subroutine)
          continue;
        subroutine.walk([&](Operation *op) {
          if (isHandleProducer(op))
            edges.emplace_back(getDrivenCoroutine(op).getValue(), op);
        });
      }
    }
    llvm::StringSet<> done, onPath;
    std::function<Operation *(StringRef)> findCycle =
        [&](StringRef coroutine) -> Operation * {
      if (done.contains(coroutine))
        return nullptr;
      onPath.insert(coroutine);
      for (auto [next, op] : drives.lookup(coroutine)) {
        if (onPath.contains(next))
          return op;
        if (Operation *found = findCycle(next))
          return found;
      }
      onPath.erase(coroutine);
      done.insert(coroutine);
      return nullptr;
    };
    for (auto &entry : drives)
      if (Operation *op = findCycle(entry.getKey()))
        return op->emitOpError("drives a frame of ")
               << getDrivenCoroutine(op)
               << " from inside that coroutine's own subroutines (directly "
                  "or through other coroutines): a frame cannot hold one of "
                  "its own kind";
    return success();
  }

  LogicalResult lowerFrameWords(HandleFrameWordsOp op) {
    FailureOr<HandleTarget *> target = getTarget(op, op.getCoroutineAttr());
    if (failed(target))
      return failure();
    OpBuilder builder(op);
    Value words = arith::ConstantIndexOp::create(
        builder, op.getLoc(), (*target)->split.getFrameWords());
    op.replaceAllUsesWith(words);
    op.erase();
    return success();
  }

  /// The frame of one handle, and every op that uses it.
  LogicalResult lowerHandle(Operation *producer) {
    Value handle = producer->getResult(0);
    auto type = cast<HandleType>(handle.getType());
    FailureOr<HandleTarget *> found = getTarget(producer, type.getCoroutine());
    if (failed(found))
      return failure();
    HandleTarget &target = **found;
    SplitOp split = target.split;
    int64_t frameWords = split.getFrameWords();
    Location loc = producer->getLoc();
    OpBuilder builder(producer);
    SmallVector<int64_t> allWords =
        llvm::to_vector(llvm::seq<int64_t>(0, frameWords));
    // The frame is allocated once, at the start of the function (a handle
    // created in a loop must not grow the stack each iteration), and
    // initialized where the handle is made.
    std::optional<PrivateFrame> frame;
    // (The function, not the nearest allocation scope: an scf.for is one,
    // but lowered to LLVM it does not give its stack back per iteration.)
    if (auto function = producer->getParentOfType<FunctionOpInterface>()) {
      OpBuilder atStart(producer->getContext());
      atStart.setInsertionPointToStart(&function.getFunctionBody().front());
      frame = PrivateFrame::allocate(atStart, loc, split, /*zeroed=*/false);
    } else {
      frame = PrivateFrame::allocate(builder, loc, split, /*zeroed=*/false);
    }
    if (auto create = dyn_cast<HandleCreateOp>(producer)) {
      frame->zero(builder, loc);
      Value id = arith::IndexCastOp::create(builder, loc, builder.getI32Type(),
                                            create.getInstance());
      frame->storeWord(builder, loc, kCoroIdWord, id);
    } else {
      auto load = cast<HandleLoadOp>(producer);
      FrameArraySlot slot(
          load.getBuffer(), frameWords, load.getIndex(), load.getCount(),
          load.getAos() ? FrameArrayLayout::AoS : FrameArrayLayout::SoA);
      copyFrameWords(builder, loc, slot, *frame, allWords);
    }
    ++numHandles;
    LDBG() << "handle of " << type.getCoroutine() << " at " << loc << ": "
           << frameWords << " frame words";

    for (Operation *user : llvm::to_vector(handle.getUsers())) {
      builder.setInsertionPoint(user);
      Location userLoc = user->getLoc();
      Value replacement;
      if (auto resume = dyn_cast<HandleResumeOp>(user)) {
        if (failed(lowerResume(resume, target, *frame)))
          return failure();
      } else if (isa<HandleTargetOp>(user)) {
        replacement = frame->loadToken(builder, userLoc);
      } else if (isa<HandleDoneOp>(user)) {
        replacement = compareWithTerminatedToken(
            builder, userLoc, frame->loadToken(builder, userLoc));
      } else if (isa<HandleIdOp>(user)) {
        replacement = loadInstance(builder, userLoc, *frame);
      } else if (auto promise = dyn_cast<HandlePromiseOp>(user)) {
        FailureOr<SmallVector<FrameFieldAttr>> fields =
            findPromise(promise, split);
        if (failed(fields))
          return failure();
        SmallVector<Value> lanes;
        for (FrameFieldAttr field : *fields)
          lanes.push_back(frame->loadField(builder, userLoc, field));
        replacement = isa<VectorType>(promise.getType())
                          ? vector::FromElementsOp::create(
                                builder, userLoc,
                                cast<VectorType>(promise.getType()), lanes)
                                .getResult()
                          : lanes.front();
      } else {
        auto store = cast<HandleStoreOp>(user);
        FrameArraySlot slot(
            store.getBuffer(), frameWords, store.getIndex(), store.getCount(),
            store.getAos() ? FrameArrayLayout::AoS : FrameArrayLayout::SoA);
        copyFrameWords(builder, userLoc, *frame, slot, allWords);
      }
      if (replacement)
        user->getResult(0).replaceAllUsesWith(replacement);
      user->erase();
    }
    producer->erase();
    return success();
  }

  /// The instance index the frame was created for (its coro_id word).
  static Value loadInstance(OpBuilder &builder, Location loc,
                            const PrivateFrame &frame) {
    return arith::IndexCastUIOp::create(
        builder, loc, builder.getIndexType(),
        frame.loadWord(builder, loc, kCoroIdWord));
  }

  /// The promise fields `promise` reads, with its type checked: one field,
  /// or for a vector the fields of its lanes, which coro-split keeps apart.
  static FailureOr<SmallVector<FrameFieldAttr>>
  findPromise(HandlePromiseOp promise, SplitOp split) {
    StringRef name = promise.getName();
    Type type = promise.getType();
    SmallVector<FrameFieldAttr> fields = split.getPromiseFields(name);
    if (fields.empty()) {
      SmallVector<std::string> names;
      for (FrameFieldAttr field : split.getFrameFields())
        if (field.getPromise())
          names.push_back(field.getName().getValue().str());
      return promise.emitOpError("reads promise field \"")
             << name << "\", which @" << split.getCoroutine()
             << " does not have (its promise fields: "
             << (names.empty() ? std::string("none") : llvm::join(names, ", "))
             << ")";
    }
    Type laneType = fields.front().getType();
    Type holds =
        fields.size() == 1 && !isa<VectorType>(type)
            ? laneType
            : VectorType::get({static_cast<int64_t>(fields.size())}, laneType);
    if (holds != type)
      return promise.emitOpError("reads promise field \"")
             << name << "\" of @" << split.getCoroutine() << " as " << type
             << ", but it holds " << holds;
    return fields;
  }

  /// Inlines the subroutine(s) `resume` may run, in an scf.index_switch on
  /// the token, with their frame accesses lowered onto `frame`.
  LogicalResult lowerResume(HandleResumeOp resume, HandleTarget &target,
                            const PrivateFrame &frame) {
    OpBuilder builder(resume);
    Location loc = resume.getLoc();
    SplitOp split = target.split;
    SmallVector<int64_t> cases;
    Value token;
    if (std::optional<StringRef> tag = resume.getTag()) {
      auto names = split.getNames().getAsValueRange<StringAttr>();
      auto it = llvm::find(names, *tag);
      if (it == names.end())
        return resume.emitOpError("resumes @")
               << split.getCoroutine() << " at \"" << *tag
               << "\", which is not one of its suspension points (its "
                  "subroutines: "
               << llvm::join(names, ", ") << ")";
      int64_t index = std::distance(names.begin(), it);
      cases.push_back(index);
      token = arith::ConstantIndexOp::create(builder, loc, index);
    } else {
      cases = llvm::to_vector(llvm::seq<int64_t>(0, target.subroutines.size()));
      Value value =
          resume.getToken() ? resume.getToken() : frame.loadToken(builder, loc);
      token = arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                         value);
    }
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    // A frame created for linear index i is instance (i, 0, 0) of a grid of
    // one row.
    InstancePosition position{loadInstance(builder, loc, frame), zero, zero,
                              one, one};
    auto dispatch = scf::IndexSwitchOp::create(builder, loc, TypeRange{}, token,
                                               cases, cases.size());
    SmallVector<Value> args(resume.getArgs());
    for (auto [caseToken, region] :
         llvm::zip_equal(cases, dispatch.getCaseRegions())) {
      OpBuilder::InsertionGuard guard(builder);
      builder.createBlock(&region);
      cloneSubroutineBody(builder, target.subroutines[caseToken], args);
      scf::YieldOp::create(builder, loc);
    }
    // Any other token (-1: returned) runs nothing.
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.createBlock(&dispatch.getDefaultRegion());
      scf::YieldOp::create(builder, loc);
    }
    for (int64_t caseToken : cases)
      if (failed(
              lowerFrameAccesses(target.subroutines[caseToken].getArgument(0),
                                 split, frame, position, dispatch)))
        return failure();
    ++numResumptions;
    return success();
  }

  ModuleOp module;
  std::optional<SymbolTable> symbols;
  std::map<std::string, HandleTarget> targets;
  /// The coroutine.split of each coroutine split when the pass started.
  llvm::StringMap<SplitOp> splits;
};

} // namespace
