//===- PersistentToGPU.cpp - the persistent-threads scheduler on GPUs -----===//
//
// Part of the CoroGPU project.
//
// The paper's persistent-threads scheduler (Sec. 6.3): one kernel whose
// workgroups stay resident and run block-wise state machines over batches of
// instances. For a coroutine @f with subroutines 0..T-1, `f__pt` is, per
// workgroup of W threads with B instance slots:
//
//   tokens[B], ids[B], queue[B], counts[T]: workgroup memory
//   frames of slots [0, S): workgroup memory (SoA or AoS)
//   frames of slots [S, B): the global memory extension
//   loop {
//     leader: if enough slots are free, take a batch of instances with one
//             global atomic (counts[0] += batch); pick the most common
//             token c (counts[c] = 0: all of them run); stop if none
//     free slots get the new instances (token 0); slots with token c are
//             queued
//     each queued instance: subroutine c, its frame loads and stores on
//             the slot's frame where it makes them, token t -> tokens[],
//             counts[t] += 1                           (workgroup atomics)
//   }
//
// With fall-through, each queued instance goes on to any later subroutine
// the chosen one leads to, in the same step (buildFallThroughDispatch).
//
// counts[t] is the number of live slots with token t, kept by the steps:
// three workgroup barriers per step, and no pass over the slots to count.
//
// With swap-frames (the paper's frame swapping), a slot's frame may move:
// frameOf[B] names the frame each slot uses, frames [0, S) in workgroup
// memory and [S, B) in the extension. Each step, the queued slots whose
// frames are in the extension trade frames with slots that do not run whose
// frames are in workgroup memory, before the run, behind one more barrier.
//
// The kernel's name, arguments and state words are fixed in
// corogpu/runtime/PersistentABI.h, shared with the runtime.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Analysis/FrameWordAccesses.h"
#include "CoroGPU/Conversion/GPUKernels.h"
#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"
#include "corogpu/runtime/PersistentABI.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/DebugLog.h"
#include <limits>
#include <set>

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROPERSISTENTTOGPU
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-persistent-to-gpu"

using namespace mlir;
using namespace mlir::coro;
namespace pt = corogpu::runtime::persistent;

namespace {

/// Words of the leader's decisions in workgroup memory.
enum ControlWord : int64_t {
  kChosenToken,  ///< The token this step runs.
  kRunning,      ///< 0 once the workgroup has nothing left to run.
  kBatchBase,    ///< First instance of the batch taken this step.
  kBatchSize,    ///< Instances taken this step.
  kFreeRank,     ///< Numbers the free slots that take them.
  kQueueLength,  ///< Instances queued this step.
  kExhausted,    ///< 1 once the grid had no instance for this workgroup,
                 ///< or it took its batches of this launch.
  kSteps,        ///< Statistics of this workgroup, added to the state
  kAcquisitions, ///< buffer at the end.
  kReturned,
  kSwapIn,  ///< With swap-frames only: queued slots whose frames are
  kSwapOut, ///< in the extension, and slots that do not run with
            ///< frames in workgroup memory, this step;
  kSwapped, ///< frames swapped in (statistics).
  kNumControlWords,
  kNumControlWordsWithoutSwap = kSwapIn,
};

/// Words of an array of `slots` frames of `frameWords` words (aosoa: whole
/// tiles; corogpu/runtime/FrameArrayABI.h).
static int64_t getFrameArrayWords(FrameArrayLayout layout, int64_t slots,
                                  int64_t frameWords) {
  return static_cast<int64_t>(
      corogpu::runtime::getFrameArrayWords(layout, slots, frameWords));
}

/// The control words of a kernel: with parkOnPasses one more, last, the
/// most loop passes a thread of the workgroup made this launch.
static int64_t getNumControlWords(bool swapFrames, bool parkOnPasses) {
  return (swapFrames ? kNumControlWords : kNumControlWordsWithoutSwap) +
         (parkOnPasses ? 1 : 0);
}

/// Bounded steps with loops counted: the workgroup parks once a thread made
/// this many loop passes in the launch, a quarter of lavapipe's limit, so
/// that a step after it has room even where the driver counts more than a
/// thread does (a subgroup's busiest lane loop by loop).
constexpr int64_t kParkAfterLoopPasses = 16384;

/// The frame of a persistent-threads slot. Its token is a private word
/// (the scheduler keeps each slot's token in workgroup memory and copies
/// it); its fields are in workgroup memory for the first slots and in the
/// workgroup's part of the global extension for the others, each a
/// FrameArraySlot of the fields' words (frame word w is word
/// w - kFirstFieldWord there). When both hold frames, where a slot's frame
/// lives is known only at run time, and SPIR-V's logical addressing has no
/// pointer that may point into either: each access, or each group of words
/// accessed together, is a branch between the two.
///
/// A subroutine accesses the slot's frame in place, or, when it accesses the
/// frame at least twice as often as it would copy words, it runs on the
/// private frame: one copy step brings in the words it may read before it
/// writes them and those it writes on some paths only (FrameWordAccesses),
/// one sends back the words it may write. The subroutines of a large
/// program access the frame thousands of times (coro-fuzz seed 674: about
/// 300 accesses of 18 words per subroutine): accessed in place, its kernel
/// was 2.6 times the size of the state machine's with split frames, and
/// lavapipe took minutes to compile it either way. The other subroutines
/// access the frame in place, which takes fewer registers (the BVH path
/// tracer's kernel: 83 on sm_90; 90 with copies everywhere, 93 with copies
/// wherever they are merely fewer than the accesses).
class PersistentSlotFrame final : public FrameStorage {
public:
  PersistentSlotFrame(const PrivateFrame &token,
                      std::optional<FrameArraySlot> inShared,
                      std::optional<FrameArraySlot> inExtension, Value isShared)
      : FrameStorage(token.getFrameWords()), token(token),
        inShared(std::move(inShared)), inExtension(std::move(inExtension)),
        isShared(isShared) {}

  Value loadWord(OpBuilder &builder, Location loc,
                 int64_t word) const override {
    if (word == kTargetTokenWord)
      return token.loadWord(builder, loc, word);
    return loadWords(builder, loc, word).front();
  }
  void storeWord(OpBuilder &builder, Location loc, int64_t word,
                 Value value) const override {
    if (word == kTargetTokenWord)
      return token.storeWord(builder, loc, word, value);
    storeWords(builder, loc, word, value);
  }
  SmallVector<Value> loadWords(OpBuilder &builder, Location loc,
                               ArrayRef<int64_t> words) const override {
    SmallVector<int64_t> fieldWords = getFieldWords(words);
    SmallVector<Type> types(words.size(), builder.getI32Type());
    return inPlace(builder, loc, types, [&](const FrameArraySlot &frame) {
      return frame.loadWords(builder, loc, fieldWords);
    });
  }
  void storeWords(OpBuilder &builder, Location loc, ArrayRef<int64_t> words,
                  ValueRange values) const override {
    SmallVector<int64_t> fieldWords = getFieldWords(words);
    inPlace(builder, loc, TypeRange{}, [&](const FrameArraySlot &frame) {
      frame.storeWords(builder, loc, fieldWords, values);
      return SmallVector<Value>();
    });
  }

private:
  /// Frame words as words of the field arrays. The id word is never
  /// accessed (the scheduler keeps ids), nor the token with other words.
  static SmallVector<int64_t> getFieldWords(ArrayRef<int64_t> words) {
    return llvm::map_to_vector(words, [](int64_t word) {
      assert(word >= kFirstFieldWord && "not a field word of the frame");
      return word - kFirstFieldWord;
    });
  }

  /// `access(frame)` on the one place frames are, or in a branch between
  /// the two; the values it returns are the results.
  SmallVector<Value> inPlace(
      OpBuilder &builder, Location loc, TypeRange types,
      function_ref<SmallVector<Value>(const FrameArraySlot &)> access) const {
    if (!isShared) {
      assert((inShared || inExtension) &&
             "a frame with fields lives somewhere");
      return access(inShared ? *inShared : *inExtension);
    }
    auto ifOp = scf::IfOp::create(builder, loc, types, isShared,
                                  /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
    for (bool shared : {true, false}) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(shared ? ifOp.thenBlock()
                                              : ifOp.elseBlock());
      scf::YieldOp::create(builder, loc,
                           access(shared ? *inShared : *inExtension));
    }
    return SmallVector<Value>(ifOp.getResults());
  }

  const PrivateFrame &token;
  std::optional<FrameArraySlot> inShared, inExtension;
  /// Whether the slot's frame is in workgroup memory (i1), where both
  /// places hold frames.
  Value isShared;
};

/// Builds the kernel of one split coroutine. Every scheduler value in
/// workgroup or state memory is an i32.
class PersistentBuilder : public SchedulerKernelBuilder {
public:
  PersistentBuilder(SplitOp split, FuncOp coroutine, gpu::GPUModuleOp kernels,
                    int64_t workgroupSize, int64_t batch, int64_t sharedSlots,
                    bool swapFrames, bool fallThrough, FrameArrayLayout layout,
                    int64_t stepsPerLaunch, bool parkOnPasses,
                    RewriterBase &rewriter)
      : SchedulerKernelBuilder(rewriter, coroutine.getLoc()), split(split),
        coroutine(coroutine), kernels(kernels), workgroupSize(workgroupSize),
        batch(batch), sharedSlots(sharedSlots), swapFrames(swapFrames),
        fallThrough(fallThrough), layout(layout),
        stepsPerLaunch(stepsPerLaunch), parkOnPasses(parkOnPasses) {
    tokens = split.getSubroutines().size();
    bodyWords = split.getFrameWords() - kFirstFieldWord;
  }

  /// Counts every loop pass of a thread (scheduler loops included) into
  /// kMostLoopIterations: a driver's loop limit reached.
  /// With parkOnPasses, each thread also raises the workgroup's peak to its
  /// count at the end of every step, for the leader's next decision.
  void addIterationCounter() {
    Value counter = addLoopIterationCounter(&kernel.getBody().front(), state,
                                            pt::kMostLoopIterations, rewriter);
    if (!parkOnPasses || !counter)
      return;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(stepEnd);
    Value passes = memref::LoadOp::create(rewriter, loc, counter, index(0));
    memref::AtomicRMWOp::create(rewriter, loc, arith::AtomicRMWKind::maxu,
                                passes, control,
                                ValueRange{index(getPassesPeakWord())});
  }

  /// Builds `<f>__pt`; the subroutines' frame accesses are lowered (the
  /// caller erases them).
  LogicalResult build(ArrayRef<func::FuncOp> subroutines) {
    LogicalResult lowered = success();
    createKernelAndMemory();
    Value returned = i32(kTerminatedToken);

    // Every slot free, using its own frame; nothing decided yet, no
    // instance waiting at any token.
    forEachSlot([&](Value slot) {
      storeShared(slotTokens, slot, returned);
      if (swapFrames)
        storeShared(frameOf, slot, toI32(slot));
    });
    buildIf(equal(lane, index(0)), [&] {
      for (int64_t word = 0, e = getNumControlWords(swapFrames, parkOnPasses);
           word < e; ++word)
        storeShared(control, index(word), i32(0));
      buildLoop(index(0), index(tokens), index(1), [&](Value t) {
        storeShared(runs, t, i32(0));
        storeShared(counts, t, i32(0));
      });
    });
    gpu::BarrierOp::create(rewriter, loc);
    if (stepsPerLaunch > 0) {
      buildResume();
      gpu::BarrierOp::create(rewriter, loc);
    }

    // The SCF to SPIR-V conversion mishandles a `before` region with
    // control flow in it, so the loop only tests a flag there.
    Type i1 = rewriter.getI1Type();
    Value start = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    auto loop = scf::WhileOp::create(rewriter, loc, TypeRange{}, start);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Block *before = rewriter.createBlock(&loop.getBefore(), {}, i1, loc);
      scf::ConditionOp::create(rewriter, loc, before->getArgument(0),
                               ValueRange{});
      rewriter.createBlock(&loop.getAfter());
      // The counts per token are kept up to date by the steps (the batch's
      // instances, the chosen token's run, each run's next token), so a
      // step needs no pass over the slots to count them: three barriers.
      buildIf(equal(lane, index(0)), [&] { buildLeaderDecisions(); });
      gpu::BarrierOp::create(rewriter, loc);
      Value running = equal(loadControl(kRunning), i32(1));
      buildIf(running, [&] {
        buildRefillAndQueue();
        gpu::BarrierOp::create(rewriter, loc);
        if (swapFrames)
          buildSwap();
        if (failed(buildRun(subroutines)))
          lowered = failure();
        stepEnd = gpu::BarrierOp::create(rewriter, loc);
      });
      scf::YieldOp::create(rewriter, loc, running);
    }
    if (stepsPerLaunch > 0)
      buildPark();

    // This workgroup's statistics into the state buffer.
    buildIf(equal(lane, index(0)), [&] {
      addToState(index(pt::kSteps), loadControl(kSteps));
      addToState(index(pt::kAcquisitions), loadControl(kAcquisitions));
      addToState(index(pt::kReturned), loadControl(kReturned));
      if (swapFrames)
        addToState(index(pt::kSwappedFrames), loadControl(kSwapped));
      buildLoop(index(0), index(tokens), index(1), [&](Value t) {
        addToState(add(index(pt::kFirstTokenWord), t), loadShared(runs, t));
      });
    });
    return lowered;
  }

private:
  //===--------------------------------------------------------------------===//
  // Helpers
  //===--------------------------------------------------------------------===//

  Value both(Value a, Value b) {
    return arith::AndIOp::create(rewriter, loc, a, b);
  }
  /// a < b, as signed integers.
  Value lessThanSigned(Value a, Value b) {
    return compare(arith::CmpIPredicate::slt, a, b);
  }

  Value loadShared(Value array, Value at) {
    return memref::LoadOp::create(rewriter, loc, array, at);
  }
  void storeShared(Value array, Value at, Value value) {
    memref::StoreOp::create(rewriter, loc, value, array, at);
  }
  /// The control word of the peak of loop passes (parkOnPasses).
  int64_t getPassesPeakWord() const {
    return getNumControlWords(swapFrames, /*parkOnPasses=*/false);
  }
  Value loadControl(ControlWord word) {
    return loadShared(control, index(word));
  }
  void storeControl(ControlWord word, Value value) {
    storeShared(control, index(word), value);
  }
  /// Atomically adds `value` to `array[at]`; returns the old value.
  Value atomicAdd(Value array, Value at, Value value) {
    return memref::AtomicRMWOp::create(rewriter, loc,
                                       arith::AtomicRMWKind::addi, value, array,
                                       ValueRange{at});
  }
  void addToState(Value word, Value value) { atomicAdd(state, word, value); }

  /// The slots of this thread: lane, lane + W, ... below the batch.
  void forEachSlot(function_ref<void(Value)> body) {
    buildLoop(lane, index(batch), index(workgroupSize), body);
  }

  //===--------------------------------------------------------------------===//
  // The kernel
  //===--------------------------------------------------------------------===//

  Value addWorkgroupArray(int64_t size) {
    return SchedulerKernelBuilder::addWorkgroupArray(kernel, size);
  }

  void createKernelAndMemory() {
    auto words = MemRefType::get({ShapedType::kDynamic}, rewriter.getI32Type());
    SmallVector<Type> inputs(3, rewriter.getIndexType());
    inputs.append(pt::kNumSchedulerBuffers, words);
    llvm::append_range(inputs, coroutine.getArgumentTypes());
    kernel =
        createKernel(kernels, pt::getKernelName(coroutine.getSymName().str()),
                     inputs, workgroupSize, loc, rewriter);
    Block &entry = kernel.getBody().front();
    nx = entry.getArgument(0);
    ny = entry.getArgument(1);
    state = entry.getArgument(3);
    extension = entry.getArgument(4);
    // Copied: the workgroup attributions below add block arguments.
    ValueRange args =
        entry.getArguments().drop_front(3 + pt::kNumSchedulerBuffers);
    coroutineArgs.assign(args.begin(), args.end());

    slotTokens = addWorkgroupArray(batch);
    slotIds = addWorkgroupArray(batch);
    queue = addWorkgroupArray(batch);
    counts = addWorkgroupArray(tokens);
    runs = addWorkgroupArray(tokens);
    control = addWorkgroupArray(getNumControlWords(swapFrames, parkOnPasses));
    if (sharedSlots > 0 && bodyWords > 0)
      sharedFrames =
          addWorkgroupArray(getFrameArrayWords(layout, sharedSlots, bodyWords));
    if (swapFrames) {
      frameOf = addWorkgroupArray(batch);
      swapList = addWorkgroupArray(batch);
    }

    rewriter.setInsertionPoint(entry.getTerminator());
    lane = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    group = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
    // The private frame (allocated once, in the entry block) holds the
    // token of the instance that runs, and the fields of the subroutines
    // that run on a copy of its frame. Every run sets the token first and
    // copies in the fields it reads, so it needs no zeroing.
    privateFrame.emplace(
        PrivateFrame::allocate(rewriter, loc, split, /*zeroed=*/false));
  }

  /// Thread 0: takes a batch of instances when at least a workgroup's worth
  /// of slots is free (or all are), then picks the most common token.
  void buildLeaderDecisions() {
    auto sum = scf::ForOp::create(
        rewriter, loc, index(0), index(tokens), index(1), ValueRange{i32(0)},
        [&](OpBuilder &, Location, Value t, ValueRange running) {
          scf::YieldOp::create(rewriter, loc,
                               add(running.front(), loadShared(counts, t)));
        });
    Value alive = sum.getResult(0);
    Value free = sub(i32(batch), alive);
    Value asking = equal(loadControl(kExhausted), i32(0));
    // Bounded steps: after the launch's last step, the workgroup parks.
    Value going;
    if (stepsPerLaunch > 0) {
      going = lessThanSigned(loadControl(kSteps), i32(stepsPerLaunch));
      if (parkOnPasses)
        going =
            both(going,
                 lessThanSigned(loadShared(control, index(getPassesPeakWord())),
                                i32(kParkAfterLoopPasses)));
      asking = both(asking, going);
    }
    Value wanted = both(both(asking, notEqual(free, i32(0))),
                        arith::OrIOp::create(rewriter, loc,
                                             compare(arith::CmpIPredicate::sge,
                                                     free, i32(workgroupSize)),
                                             equal(alive, i32(0))));
    storeControl(kBatchBase, i32(0));
    storeControl(kBatchSize, i32(0));
    buildIf(wanted, [&] {
      auto loadTotal = [&] {
        return memref::LoadOp::create(rewriter, loc, state,
                                      ValueRange{index(pt::kTotalInstances)});
      };
      Value base, total;
      if (stepsPerLaunch > 0) {
        // Bounded steps: every launch asks again, so once the grid is
        // exhausted the counter is only read, lest it pass 2^31.
        total = loadTotal();
        Value next = memref::LoadOp::create(
            rewriter, loc, state, ValueRange{index(pt::kNextInstance)});
        base = buildIfValue(
            lessThanSigned(next, total),
            [&] { return atomicAdd(state, index(pt::kNextInstance), free); },
            [&] { return total; });
      } else {
        base = atomicAdd(state, index(pt::kNextInstance), free);
        total = loadTotal();
      }
      Value left =
          select(lessThanSigned(base, total), sub(total, base), i32(0));
      Value taken = arith::MinSIOp::create(rewriter, loc, free, left);
      storeControl(kBatchBase, base);
      storeControl(kBatchSize, taken);
      // A short batch means the grid is exhausted: never ask again. Nor
      // after the last batch this launch may take.
      Value limit = memref::LoadOp::create(
          rewriter, loc, state, ValueRange{index(pt::kBatchesPerLaunch)});
      Value taking = add(loadControl(kAcquisitions), i32(1));
      Value lastBatch = both(notEqual(limit, i32(0)), equal(taking, limit));
      buildIf(arith::OrIOp::create(rewriter, loc, lessThanSigned(taken, free),
                                   lastBatch),
              [&] { storeControl(kExhausted, i32(1)); });
      buildIf(notEqual(taken, i32(0)), [&] {
        storeControl(kAcquisitions, taking);
        Value entry = index(kEntryToken);
        storeShared(counts, entry, add(loadShared(counts, entry), taken));
      });
    });

    // The most common token (the first of equals).
    auto best = scf::ForOp::create(
        rewriter, loc, index(0), index(tokens), index(1),
        ValueRange{i32(0), i32(0)},
        [&](OpBuilder &, Location, Value t, ValueRange current) {
          Value count = loadShared(counts, t);
          Value larger =
              compare(arith::CmpIPredicate::sgt, count, current.back());
          scf::YieldOp::create(
              rewriter, loc,
              ValueRange{select(larger, toI32(t), current.front()),
                         select(larger, count, current.back())});
        });
    Value chosen = best.getResult(0), most = best.getResult(1);
    Value running = notEqual(most, i32(0));
    if (going)
      running = both(running, going);
    storeControl(kChosenToken, chosen);
    storeControl(kRunning, boolToI32(running));
    storeControl(kFreeRank, i32(0));
    storeControl(kQueueLength, i32(0));
    if (swapFrames) {
      storeControl(kSwapIn, i32(0));
      storeControl(kSwapOut, i32(0));
    }
    buildIf(running, [&] {
      storeControl(kSteps, add(loadControl(kSteps), i32(1)));
      Value at = toIndex(chosen);
      storeShared(runs, at, add(loadShared(runs, at), most));
      // Every instance waiting at the chosen token runs this step; each
      // counts itself again at its next token.
      storeShared(counts, at, i32(0));
    });
  }

  /// Bounded steps: the first word of this workgroup's park area, after
  /// every workgroup's frames in the extension (PersistentABI.h).
  Value getParkBase() {
    Value groups = gpu::GridDimOp::create(rewriter, loc, gpu::Dimension::x);
    int64_t frameWords =
        getFrameArrayWords(layout, batch - sharedSlots, bodyWords);
    int64_t parkWords = pt::getParkWords(batch, getSharedFrameWords());
    return add(mul(groups, index(frameWords)), mul(group, index(parkWords)));
  }
  /// The word of `slot` in `array` of the park area at `park`.
  Value getParkedWord(Value park, pt::ParkArray array, Value slot) {
    return add(park, add(index(array * batch), slot));
  }
  /// Words of the array of the frames in workgroup memory.
  int64_t getSharedFrameWords() {
    return sharedFrames ? getFrameArrayWords(layout, sharedSlots, bodyWords)
                        : 0;
  }

  /// Bounded steps, at the start of a launch after the first: the slots
  /// parked at the end of the last one (tokens, ids, frame table, the
  /// frames in workgroup memory) come back, and each live one counts
  /// itself at its token.
  void buildResume() {
    Value resume = memref::LoadOp::create(
        rewriter, loc, state,
        ValueRange{index(pt::getResumeWord(static_cast<uint32_t>(tokens)))});
    buildIf(notEqual(resume, i32(0)), [&] {
      Value park = getParkBase();
      forEachSlot([&](Value slot) {
        Value token =
            loadShared(extension, getParkedWord(park, pt::kParkedTokens, slot));
        storeShared(slotTokens, slot, token);
        storeShared(
            slotIds, slot,
            loadShared(extension, getParkedWord(park, pt::kParkedIds, slot)));
        if (swapFrames)
          storeShared(
              frameOf, slot,
              loadShared(extension,
                         getParkedWord(park, pt::kParkedFrameOf, slot)));
        buildIf(notEqual(token, i32(kTerminatedToken)),
                [&] { atomicAdd(counts, toIndex(token), i32(1)); });
      });
      if (getSharedFrameWords() == 0)
        return;
      Value frames = add(park, index(3 * batch));
      buildLoop(lane, index(getSharedFrameWords()), index(workgroupSize),
                [&](Value word) {
                  storeShared(sharedFrames, word,
                              loadShared(extension, add(frames, word)));
                });
    });
  }

  /// Bounded steps, at the end of every launch: the slots, live or free,
  /// go to the park area for the next launch.
  void buildPark() {
    Value park = getParkBase();
    forEachSlot([&](Value slot) {
      storeShared(extension, getParkedWord(park, pt::kParkedTokens, slot),
                  loadShared(slotTokens, slot));
      storeShared(extension, getParkedWord(park, pt::kParkedIds, slot),
                  loadShared(slotIds, slot));
      if (swapFrames)
        storeShared(extension, getParkedWord(park, pt::kParkedFrameOf, slot),
                    loadShared(frameOf, slot));
    });
    if (getSharedFrameWords() == 0)
      return;
    Value frames = add(park, index(3 * batch));
    buildLoop(lane, index(getSharedFrameWords()), index(workgroupSize),
              [&](Value word) {
                storeShared(extension, add(frames, word),
                            loadShared(sharedFrames, word));
              });
  }

  /// Free slots take the batch's instances; slots with the chosen token go
  /// to the queue.
  void buildRefillAndQueue() {
    Value taken = loadControl(kBatchSize);
    Value base = loadControl(kBatchBase);
    Value chosen = loadControl(kChosenToken);
    Value returned = i32(kTerminatedToken);
    forEachSlot([&](Value slot) {
      Value old = loadShared(slotTokens, slot);
      Value token = buildIfValue(
          both(equal(old, returned), notEqual(taken, i32(0))),
          [&] {
            Value rank = atomicAdd(control, index(kFreeRank), i32(1));
            Value starts = lessThanSigned(rank, taken);
            buildIf(starts, [&] {
              storeShared(slotIds, slot, add(base, rank));
              storeShared(slotTokens, slot, i32(kEntryToken));
            });
            return select(starts, i32(kEntryToken), returned);
          },
          [&] { return old; });
      Value queued = equal(token, chosen);
      buildIf(queued, [&] {
        Value place = atomicAdd(control, index(kQueueLength), i32(1));
        storeShared(queue, toIndex(place), toI32(slot));
      });
      if (!swapFrames)
        return;
      // Queued with a frame in the extension: swaps in, from the front of
      // the swap list; not queued with a frame in workgroup memory: may
      // swap out, from the back (a slot is at most one of them).
      Value frame = loadShared(frameOf, slot);
      Value inExtension =
          compare(arith::CmpIPredicate::sge, frame, i32(sharedSlots));
      buildIf(both(queued, inExtension), [&] {
        Value place = atomicAdd(control, index(kSwapIn), i32(1));
        storeShared(swapList, toIndex(place), toI32(slot));
      });
      buildIf(both(notEqual(token, chosen),
                   lessThanSigned(frame, i32(sharedSlots))),
              [&] {
                Value place = atomicAdd(control, index(kSwapOut), i32(1));
                storeShared(swapList, toIndex(sub(i32(batch - 1), place)),
                            toI32(slot));
              });
    });
  }

  /// The frame swap: the k-th queued slot with a frame in the extension and
  /// the k-th slot that does not run with a frame in workgroup memory trade
  /// frames (a free slot's frame is only overwritten), so that as many
  /// instances as workgroup memory holds run on it. A barrier separates the
  /// copies from the run, only in the steps that swap (a uniform test: the
  /// counts were written before the last barrier).
  void buildSwap() {
    Value pairs = arith::MinSIOp::create(rewriter, loc, loadControl(kSwapIn),
                                         loadControl(kSwapOut));
    buildIf(notEqual(pairs, i32(0)), [&] {
      buildIf(equal(lane, index(0)), [&] {
        storeControl(kSwapped, add(loadControl(kSwapped), pairs));
      });
      buildLoop(lane, toIndex(pairs), index(workgroupSize), [&](Value k) {
        Value in = toIndex(loadShared(swapList, k));
        Value out = toIndex(loadShared(swapList, sub(index(batch - 1), k)));
        Value inFrame = toIndex(loadShared(frameOf, in));
        Value outFrame = toIndex(loadShared(frameOf, out));
        FrameArraySlot shared = getSharedFrame(outFrame);
        FrameArraySlot global = getExtensionFrame(inFrame);
        Value outLive =
            notEqual(loadShared(slotTokens, out), i32(kTerminatedToken));
        buildLoop(index(0), index(bodyWords), index(1), [&](Value word) {
          Value atShared = shared.getWordIndex(rewriter, loc, word);
          Value atGlobal = global.getWordIndex(rewriter, loc, word);
          Value incoming = loadShared(extension, atGlobal);
          buildIf(outLive, [&] {
            storeShared(extension, atGlobal,
                        loadShared(sharedFrames, atShared));
          });
          storeShared(sharedFrames, atShared, incoming);
        });
        storeShared(frameOf, in, toI32(outFrame));
        storeShared(frameOf, out, toI32(inFrame));
      });
      gpu::BarrierOp::create(rewriter, loc);
    });
  }

  /// Each thread takes queued instances W apart and runs the chosen
  /// subroutine on each (with fall-through, and the later ones it leads to).
  LogicalResult buildRun(ArrayRef<func::FuncOp> subroutines) {
    SmallVector<FrameFieldAttr> fields = split.getFrameFields();
    Value chosen = toIndex(loadControl(kChosenToken));
    Value length = toIndex(loadControl(kQueueLength));
    LogicalResult lowered = success();
    buildLoop(lane, length, index(workgroupSize), [&](Value place) {
      Value slot = toIndex(loadShared(queue, place));
      Value id = toIndex(loadShared(slotIds, slot));
      InstancePosition position =
          delinearizeInstanceId(rewriter, loc, id, nx, ny);
      PersistentSlotFrame slotFrame = getSlotFrame(slot);
      // Both dispatches build the cases with `rewriter`, which they are
      // given.
      auto buildCase = [&](OpBuilder &, Location, unsigned token) {
        func::FuncOp subroutine = subroutines[token];
        // The leader counted the chosen subroutine's runs; an instance that
        // falls through to a later one counts that run itself.
        if (fallThrough)
          buildIf(notEqual(i32(token), toI32(chosen)),
                  [&] { atomicAdd(runs, index(token), i32(1)); });
        // A subroutine that does not set the target leaves it as it was.
        privateFrame->storeToken(rewriter, loc, i32(token));
        FrameWordAccesses used = FrameWordAccesses::compute(subroutine, fields);
        std::set<int64_t> copyIn = used.getCopyInWords();
        // On a private copy where that at least halves the frame accesses
        // in the code (see PersistentSlotFrame).
        bool onCopy =
            used.accesses >=
            static_cast<int64_t>(2 * (copyIn.size() + used.written.size()));
        LDBG() << "@" << subroutine.getSymName() << ": " << used.accesses
               << " frame accesses"
               << (onCopy ? " on a private copy" : ", in place");
        const FrameStorage &storage =
            onCopy ? static_cast<const FrameStorage &>(*privateFrame)
                   : slotFrame;
        if (onCopy)
          copyFrameWords(rewriter, loc, slotFrame, *privateFrame,
                         llvm::to_vector(copyIn));
        cloneSubroutineBody(rewriter, subroutine, coroutineArgs);
        // The clone still uses the subroutine's frame argument. The
        // originals are lowered too (the caller erases them): limiting this
        // to the kernel left an unlinked operand behind (loop-break.mlir),
        // not yet understood.
        if (failed(lowerFrameAccesses(subroutine.getArgument(0), split, storage,
                                      position)))
          lowered = failure();
        if (onCopy)
          copyFrameWords(rewriter, loc, *privateFrame, slotFrame,
                         llvm::to_vector(used.written));
        Value next = privateFrame->loadToken(rewriter, loc);
        storeShared(slotTokens, slot, next);
        buildIf(equal(next, i32(kTerminatedToken)),
                [&] { atomicAdd(control, index(kReturned), i32(1)); });
      };
      if (fallThrough) {
        // The chosen subroutine, then any later one the instance goes on to.
        privateFrame->storeToken(rewriter, loc, toI32(chosen));
        buildFallThroughDispatch(rewriter, loc, *privateFrame, tokens,
                                 buildCase);
      } else {
        buildSwitchDispatch(rewriter, loc, chosen, tokens, buildCase);
      }
      // The instance counts itself at its next token, once after the
      // dispatch: an atomic in each case let LLVM make a lookup table of
      // workgroup-memory addresses, which ptxas rejects.
      Value next = loadShared(slotTokens, slot);
      buildIf(notEqual(next, i32(kTerminatedToken)),
              [&] { atomicAdd(counts, toIndex(next), i32(1)); });
    });
    return lowered;
  }

  /// The frame of `slot`: its fields in workgroup memory below sharedSlots,
  /// in this workgroup's part of the extension above; its token in the
  /// private frame.
  PersistentSlotFrame getSlotFrame(Value slot) {
    std::optional<FrameArraySlot> inShared, inExtension;
    Value isShared;
    if (swapFrames)
      slot = toIndex(loadShared(frameOf, slot));
    if (sharedSlots != 0 && sharedFrames)
      inShared.emplace(getSharedFrame(slot));
    if (batch != sharedSlots && bodyWords != 0)
      inExtension.emplace(getExtensionFrame(slot));
    if (inShared && inExtension)
      isShared = lessThanSigned(slot, index(sharedSlots));
    return PersistentSlotFrame(*privateFrame, std::move(inShared),
                               std::move(inExtension), isShared);
  }

  /// Frame `frame` (below sharedSlots) in workgroup memory.
  FrameArraySlot getSharedFrame(Value frame) {
    return FrameArraySlot(sharedFrames, bodyWords, frame, index(sharedSlots),
                          layout);
  }
  /// Frame `frame` (sharedSlots or above) in this workgroup's part of the
  /// extension.
  FrameArraySlot getExtensionFrame(Value frame) {
    int64_t extensionSlots = batch - sharedSlots;
    return FrameArraySlot(extension, bodyWords, sub(frame, index(sharedSlots)),
                          index(extensionSlots), layout,
                          mul(group, index(getFrameArrayWords(
                                         layout, extensionSlots, bodyWords))));
  }

  SplitOp split;
  FuncOp coroutine;
  gpu::GPUModuleOp kernels;
  int64_t workgroupSize, batch, sharedSlots;
  /// Whether frames swap (swap-frames, and both places hold frames).
  bool swapFrames;
  /// Whether an instance goes on to later subroutines in the step that runs
  /// the chosen one (fall-through).
  bool fallThrough;
  FrameArrayLayout layout;
  /// Steps a workgroup runs per launch before it parks its slots (0: no
  /// bound).
  int64_t stepsPerLaunch;
  /// With bounded steps and loops counted: the workgroup also parks once a
  /// thread made kParkAfterLoopPasses loop passes this launch, which the
  /// loops inside subroutines (a BVH traversal) make long.
  bool parkOnPasses;
  /// The barrier that ends a step's run.
  Operation *stepEnd = nullptr;
  int64_t tokens = 0, bodyWords = 0;

  gpu::GPUFuncOp kernel;
  Value nx, ny, state, extension;
  SmallVector<Value> coroutineArgs;
  Value slotTokens, slotIds, queue, counts, runs, control, sharedFrames;
  /// With swapFrames: the frame each slot uses, and the step's swap list.
  Value frameOf, swapList;
  Value lane, group;
  std::optional<PrivateFrame> privateFrame;
};

struct CoroPersistentToGPUPass
    : coro::impl::CoroPersistentToGPUBase<CoroPersistentToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkSchedulerInput(module, getArgument(), workgroupSize)))
      return signalPassFailure();
    if (failed(checkSplitRan(module, getArgument())))
      return signalPassFailure();
    int64_t kernelsBefore = countSchedulerKernels(module);
    llvm::scope_exit countKernels(
        [&] { numKernels += countSchedulerKernels(module) - kernelsBefore; });
    // Slot numbers, ids and byte counts are i32 in the kernel.
    constexpr int64_t kMaxBatch = int64_t(1) << 20;
    if (batch < 1 || batch > kMaxBatch) {
      mlir::emitError(module.getLoc(), getArgument())
          << ": batch must be in [1, " << kMaxBatch << "], got "
          << static_cast<int64_t>(batch);
      return signalPassFailure();
    }
    if (stepsPerLaunch < 0 ||
        stepsPerLaunch > std::numeric_limits<int32_t>::max()) {
      mlir::emitError(module.getLoc(), getArgument())
          << ": steps-per-launch must be in [0, 2^31), got "
          << static_cast<int64_t>(stepsPerLaunch);
      return signalPassFailure();
    }
    if (sharedMemory < 0 ||
        sharedMemory > std::numeric_limits<int32_t>::max()) {
      mlir::emitError(module.getLoc(), getArgument())
          << ": shared-memory must be in [0, 2^31), got "
          << static_cast<int64_t>(sharedMemory);
      return signalPassFailure();
    }
    if (failed(rejectLaunchesOfSplitCoroutines(
            module, "persistent-threads",
            "its launch (state buffer, global memory extension, workgroup "
            "count) is done by the CoroGPU runtime (coro-run, "
            "corogpu/runtime/Persistent.h)")))
      return signalPassFailure();

    SmallVector<SplitOp> splits(module.getOps<SplitOp>());
    if (splits.empty())
      return;
    if (failed(lowerSplitsWithPlans(module, splits, *this)))
      return signalPassFailure();
  }

  /// Workgroup memory of the scheduler's own arrays (slot tokens, ids and
  /// queue; counts and runs per subroutine; the control words; with
  /// `swap`, each slot's frame and the swap list), padded as the targets
  /// may place them.
  int64_t getSchedulerBytes(SplitOp split, bool swap) {
    int64_t tokens = split.getSubroutines().size();
    auto bytes = &getWorkgroupArrayBytes;
    return (swap ? 5 : 3) * bytes(batch) + 2 * bytes(tokens) +
           bytes(getNumControlWords(swap, parksOnPasses()));
  }
  /// Whether bounded steps also park on the loop passes counted.
  bool parksOnPasses() const {
    return countLoopIterations && (stepsPerLaunch > 0 || boundSteps);
  }
  /// bound-steps: the steps per launch that take kLoopBudget passes of the
  /// scheduler's own loops in a thread: the leader's two over the
  /// subroutines, three over the slots a thread serves (refill and queue,
  /// run; five with the swap), the step loop itself and the counting.
  int64_t getBoundedSteps(int64_t tokens, bool swap) {
    constexpr int64_t kLoopBudget = 16384;
    int64_t slotsPerThread = llvm::divideCeil(batch, workgroupSize);
    int64_t perStep = 2 * tokens + (swap ? 5 : 3) * slotsPerThread + 2;
    return std::max<int64_t>(1, kLoopBudget / perStep);
  }

  /// All the workgroup memory of the kernel.
  int64_t getWorkgroupBytes(SplitOp split, int64_t sharedSlots, bool swap) {
    int64_t bodyWords = split.getFrameWords() - kFirstFieldWord;
    return getSchedulerBytes(split, swap) +
           getWorkgroupArrayBytes(
               getFrameArrayWords(layout, sharedSlots, bodyWords));
  }

  /// How many slots keep their frame in workgroup memory: as many as the
  /// budget holds after the scheduler's own arrays; an error if those do
  /// not fit.
  FailureOr<int64_t> getSharedSlots(SplitOp split, bool swap) {
    int64_t tokens = split.getSubroutines().size();
    int64_t bodyWords = split.getFrameWords() - kFirstFieldWord;
    int64_t schedulerBytes = getSchedulerBytes(split, swap);
    if (schedulerBytes > sharedMemory) {
      split.emitOpError("needs ")
          << schedulerBytes << " bytes of workgroup memory for "
          << static_cast<int64_t>(batch)
          << " persistent-threads slots (tokens, ids, queue), " << tokens
          << " subroutines (counts, runs) and the control words, more than "
             "shared-memory="
          << static_cast<int64_t>(sharedMemory) << "; lower the batch";
      return failure();
    }
    if (bodyWords == 0)
      return static_cast<int64_t>(batch);
    // The frame array, padded to the alignment, must fit what is left.
    int64_t left = llvm::alignDown(sharedMemory - schedulerBytes,
                                   kWorkgroupArrayAlignment);
    auto slots = static_cast<int64_t>(
        corogpu::runtime::getFrameArraySlots(layout, left / 4, bodyWords));
    return std::min<int64_t>(batch, slots);
  }

  LogicalResult lowerSplit(SplitOp split, SymbolTable &symbols,
                           gpu::GPUModuleOp kernels, RewriterBase &rewriter) {
    auto coroutine = symbols.lookup<FuncOp>(split.getCoroutine());
    FailureOr<SmallVector<func::FuncOp>> subroutines =
        split.lookupSubroutines(symbols);
    FailureOr<int64_t> sharedSlots = getSharedSlots(split, /*swap=*/false);
    if (failed(subroutines) || failed(sharedSlots))
      return failure();
    // Frames swap where some live in each place, once the swap's arrays
    // take their share of workgroup memory.
    bool swap = false;
    if (swapFrames && *sharedSlots < batch &&
        getSchedulerBytes(split, /*swap=*/true) <= sharedMemory) {
      FailureOr<int64_t> swapSlots = getSharedSlots(split, /*swap=*/true);
      if (failed(swapSlots))
        return failure();
      swap = *swapSlots > 0;
      if (swap)
        sharedSlots = swapSlots;
    }
    LDBG() << "@" << coroutine.getSymName() << ": " << *sharedSlots << " of "
           << batch << " frames in workgroup memory"
           << (swap ? ", swapped" : "");
    int64_t steps = stepsPerLaunch;
    if (steps == 0 && boundSteps)
      steps = getBoundedSteps(split.getSubroutines().size(), swap);
    LDBG() << "@" << coroutine.getSymName() << ": "
           << (steps ? std::to_string(steps) : std::string("unbounded"))
           << " steps per launch";
    PersistentBuilder builder(split, coroutine, kernels, workgroupSize, batch,
                              *sharedSlots, swap, fallThrough, layout, steps,
                              parksOnPasses(), rewriter);
    if (failed(builder.build(*subroutines)))
      return failure();
    if (countLoopIterations)
      builder.addIterationCounter();
    for (func::FuncOp subroutine : *subroutines)
      rewriter.eraseOp(subroutine);
    // The subroutines are named by their tags, in token order.
    plan::setPlan(
        split->getParentOfType<ModuleOp>(), split.getCoroutine(),
        plan::PersistentPlanAttr::get(
            &getContext(), workgroupSize, split.getSubroutines().size(),
            split.getFrameWords() - kFirstFieldWord, batch, *sharedSlots,
            getWorkgroupBytes(split, *sharedSlots, swap), layout,
            split.getNamesAttr(), static_cast<uint32_t>(steps)));
    rewriter.eraseOp(split);
    rewriter.eraseOp(coroutine);
    return success();
  }
};

} // namespace
