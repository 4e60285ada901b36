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
//     counts[t] = live slots with token t              (workgroup atomics)
//     leader: if enough slots are free, take a batch of instances with one
//             global atomic; pick the most common token c; stop if none
//     free slots get the new instances (token 0); slots with token c are
//             queued
//     each queued instance: subroutine c, its frame loads and stores on
//             the slot's frame where it makes them, token -> tokens[]
//   }
//
// The kernel's name, arguments and state words are fixed in
// corogpu/runtime/PersistentABI.h, shared with the runtime.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/GPUKernels.h"
#include "CoroGPU/Conversion/Passes.h"
#include "corogpu/runtime/PersistentABI.h"

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
  kNumControlWords,
};

/// Builds the kernel of one split coroutine. Every scheduler value in
/// workgroup or state memory is an i32.
class PersistentBuilder : public SchedulerKernelBuilder {
public:
  PersistentBuilder(SplitOp split, FuncOp coroutine, gpu::GPUModuleOp kernels,
                    int64_t workgroupSize, int64_t batch, int64_t sharedSlots,
                    FrameArrayLayout layout, RewriterBase &rewriter)
      : SchedulerKernelBuilder(rewriter, coroutine.getLoc()), split(split),
        coroutine(coroutine), kernels(kernels), workgroupSize(workgroupSize),
        batch(batch), sharedSlots(sharedSlots), layout(layout) {
    tokens = split.getSubroutines().size();
    bodyWords = split.getFrameWords() - kFirstFieldWord;
  }

  /// Builds `<f>__pt`; the subroutines' frame accesses are lowered (the
  /// caller erases them).
  void build(ArrayRef<func::FuncOp> subroutines) {
    createKernelAndMemory();
    Value returned = i32(kTerminatedToken);

    // Every slot free, nothing decided yet.
    forEachSlot([&](Value slot) { storeShared(slotTokens, slot, returned); });
    buildIf(equal(lane, index(0)), [&] {
      for (int64_t word = 0; word < kNumControlWords; ++word)
        storeControl(static_cast<ControlWord>(word), i32(0));
      buildLoop(index(0), index(tokens), index(1),
                [&](Value t) { storeShared(runs, t, i32(0)); });
    });
    gpu::BarrierOp::create(rewriter, loc);

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
      buildCountAndDecide();
      Value running = equal(loadControl(kRunning), i32(1));
      buildIf(running, [&] {
        buildRefillAndQueue();
        gpu::BarrierOp::create(rewriter, loc);
        buildRun(subroutines);
        gpu::BarrierOp::create(rewriter, loc);
      });
      scf::YieldOp::create(rewriter, loc, running);
    }

    // This workgroup's statistics into the state buffer.
    buildIf(equal(lane, index(0)), [&] {
      addToState(index(pt::kSteps), loadControl(kSteps));
      addToState(index(pt::kAcquisitions), loadControl(kAcquisitions));
      addToState(index(pt::kReturned), loadControl(kReturned));
      buildLoop(index(0), index(tokens), index(1), [&](Value t) {
        addToState(add(index(pt::kFirstTokenWord), t), loadShared(runs, t));
      });
    });
  }

private:
  //===--------------------------------------------------------------------===//
  // Helpers
  //===--------------------------------------------------------------------===//

  Value both(Value a, Value b) {
    return arith::AndIOp::create(rewriter, loc, a, b);
  }
  Value lessThan(Value a, Value b) {
    return compare(arith::CmpIPredicate::slt, a, b);
  }

  Value loadShared(Value array, Value at) {
    return memref::LoadOp::create(rewriter, loc, array, at);
  }
  void storeShared(Value array, Value at, Value value) {
    memref::StoreOp::create(rewriter, loc, value, array, at);
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
    control = addWorkgroupArray(kNumControlWords);
    if (sharedSlots > 0 && bodyWords > 0)
      sharedFrames = addWorkgroupArray(sharedSlots * bodyWords);

    rewriter.setInsertionPoint(entry.getTerminator());
    lane = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    group = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
    // The frame accesses of the subroutines are first lowered onto this
    // private frame (allocated once, in the entry block), then sent to the
    // slots' frames: only its token word, which every run sets first, is
    // read, so it needs no zeroing.
    privateFrame.words = memref::AllocaOp::create(
        rewriter, loc, FrameStorage::getLocalType(split));
    privateFrame.frameWords = split.getFrameWords();
  }

  /// Live slots per token, then the leader's decisions (kRunning says
  /// whether the workgroup goes on). Every thread runs it.
  void buildCountAndDecide() {
    buildLoop(lane, index(tokens), index(workgroupSize),
              [&](Value t) { storeShared(counts, t, i32(0)); });
    gpu::BarrierOp::create(rewriter, loc);
    forEachSlot([&](Value slot) {
      Value token = loadShared(slotTokens, slot);
      buildIf(notEqual(token, i32(kTerminatedToken)),
              [&] { atomicAdd(counts, toIndex(token), i32(1)); });
    });
    gpu::BarrierOp::create(rewriter, loc);
    buildIf(equal(lane, index(0)), [&] { buildLeaderDecisions(); });
    gpu::BarrierOp::create(rewriter, loc);
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
    Value wanted = both(
        both(equal(loadControl(kExhausted), i32(0)), notEqual(free, i32(0))),
        arith::OrIOp::create(
            rewriter, loc,
            compare(arith::CmpIPredicate::sge, free, i32(workgroupSize)),
            equal(alive, i32(0))));
    storeControl(kBatchBase, i32(0));
    storeControl(kBatchSize, i32(0));
    buildIf(wanted, [&] {
      Value base = atomicAdd(state, index(pt::kNextInstance), free);
      Value total = memref::LoadOp::create(
          rewriter, loc, state, ValueRange{index(pt::kTotalInstances)});
      Value left = select(lessThan(base, total), sub(total, base), i32(0));
      Value taken = arith::MinSIOp::create(rewriter, loc, free, left);
      storeControl(kBatchBase, base);
      storeControl(kBatchSize, taken);
      // A short batch means the grid is exhausted: never ask again. Nor
      // after the last batch this launch may take.
      Value limit = memref::LoadOp::create(
          rewriter, loc, state, ValueRange{index(pt::kBatchesPerLaunch)});
      Value taking = add(loadControl(kAcquisitions), i32(1));
      Value lastBatch = both(notEqual(limit, i32(0)), equal(taking, limit));
      buildIf(
          arith::OrIOp::create(rewriter, loc, lessThan(taken, free), lastBatch),
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
    storeControl(kChosenToken, chosen);
    storeControl(kRunning, boolToI32(running));
    storeControl(kFreeRank, i32(0));
    storeControl(kQueueLength, i32(0));
    buildIf(running, [&] {
      storeControl(kSteps, add(loadControl(kSteps), i32(1)));
      Value at = toIndex(chosen);
      storeShared(runs, at, add(loadShared(runs, at), most));
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
            Value starts = lessThan(rank, taken);
            buildIf(starts, [&] {
              storeShared(slotIds, slot, add(base, rank));
              storeShared(slotTokens, slot, i32(kEntryToken));
            });
            return select(starts, i32(kEntryToken), returned);
          },
          [&] { return old; });
      buildIf(equal(token, chosen), [&] {
        Value place = atomicAdd(control, index(kQueueLength), i32(1));
        storeShared(queue, toIndex(place), toI32(slot));
      });
    });
  }

  /// Where the frame of `slot` lives: workgroup memory below sharedSlots,
  /// the extension above. Word w of the frame is word w - kFirstFieldWord
  /// there (token and id live in slotTokens / slotIds).
  FrameStorage getSharedFrame(Value slot) {
    FrameStorage frame;
    frame.words = sharedFrames;
    frame.frameWords = bodyWords;
    frame.instance = slot;
    frame.numInstances = index(sharedSlots);
    frame.layout = layout;
    return frame;
  }
  /// Each workgroup has its part of the extension, laid out as `layout`
  /// over its extension slots: a constant stride between the words of a
  /// slot, so that a frame is one base address and constant offsets.
  Value getExtensionWordIndex(Value slot, int64_t word) {
    int64_t slots = batch - sharedSlots;
    Value base = mul(group, index(slots * bodyWords));
    Value local = sub(slot, index(sharedSlots));
    Value offset = layout == FrameArrayLayout::SoA
                       ? add(local, index(word * slots))
                       : add(mul(local, index(bodyWords)), index(word));
    return add(base, offset);
  }

  /// Makes the accesses to frame fields in `region`, lowered onto the
  /// private frame, reach the frame of `slot`. The token (word 0) stays
  /// private.
  ///
  /// A subroutine reads a field where it uses it and writes it where it
  /// writes it, straight in the slot's frame; or, when it accesses the frame
  /// at least twice as often as it would copy words, it runs on the private
  /// frame: one step copies in the words it may read before it writes them,
  /// one copies out the words it may write (words it writes on some paths
  /// only are copied in too, so that copying them out on the other paths
  /// writes back what was there). When the frames are split between
  /// workgroup memory and the extension, where a slot's frame lives is
  /// known only at run time, and SPIR-V's logical addressing has no pointer
  /// that may point into either: each access, or each copy step, is a branch
  /// between the two.
  ///
  /// The subroutines of a large program access the frame thousands of
  /// times (coro-fuzz seed 674: about 300 accesses of 18 words per
  /// subroutine): accessed in place, its kernel was 2.6 times the size of
  /// the state machine's with split frames, and lavapipe took minutes to
  /// compile it either way. The other subroutines access the frame in
  /// place, which takes fewer registers (the BVH path tracer's kernel: 83
  /// on sm_90; 90 with copies everywhere, 93 with copies wherever they are
  /// merely fewer than the accesses).
  void redirectToSlotFrame(Region &region, Value slot) {
    // The frame word `op` accesses, if it is a load or store of a field of
    // the private frame (whose word indices are constants: it has no
    // instance).
    auto fieldWordOf = [&](Operation *op) -> std::optional<int64_t> {
      Value memref, at;
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        memref = load.getMemRef();
        at = load.getIndices().front();
      } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
        memref = store.getMemRef();
        at = store.getIndices().front();
      }
      if (!memref || memref != privateFrame.words)
        return std::nullopt;
      std::optional<int64_t> word = getConstantIntValue(at);
      assert(word && "a frame word index that is not a constant");
      if (*word < kFirstFieldWord)
        return std::nullopt;
      return word;
    };
    SmallVector<std::pair<Operation *, int64_t>> accesses;
    std::set<int64_t> storedWords;
    region.walk([&](Operation *op) {
      if (std::optional<int64_t> word = fieldWordOf(op)) {
        accesses.push_back({op, *word});
        if (isa<memref::StoreOp>(op))
          storedWords.insert(*word);
      }
    });
    if (accesses.empty())
      return;

    // Where word `word` of the slot's frame is, in workgroup memory or in
    // the extension.
    auto slotWord = [&](bool shared, int64_t word) -> std::pair<Value, Value> {
      int64_t bodyWord = word - kFirstFieldWord;
      if (shared)
        return {sharedFrames,
                getSharedFrame(slot).getWordIndex(rewriter, loc, bodyWord)};
      return {extension, getExtensionWordIndex(slot, bodyWord)};
    };

    // `access(shared)` in the one place frames are, or in a branch between
    // the two; the values it returns are the results.
    bool uniform = sharedSlots == batch || sharedSlots == 0;
    auto inPlace = [&](TypeRange types,
                       function_ref<SmallVector<Value>(bool)> access) {
      if (uniform)
        return access(/*shared=*/sharedSlots != 0);
      auto ifOp = scf::IfOp::create(rewriter, loc, types,
                                    lessThan(slot, index(sharedSlots)),
                                    /*addThenBlock=*/true,
                                    /*addElseBlock=*/true);
      for (bool shared : {true, false}) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(shared ? ifOp.thenBlock()
                                                 : ifOp.elseBlock());
        scf::YieldOp::create(rewriter, loc, access(shared));
      }
      return SmallVector<Value>(ifOp.getResults());
    };

    // Each access straight to the slot's frame; in a branch of its own when
    // the frames are split.
    auto redirectEach = [&] {
      for (const auto &[accessOp, accessWord] : accesses) {
        // Named copies: lambdas may not capture structured bindings before
        // C++20.
        Operation *op = accessOp;
        int64_t word = accessWord;
        rewriter.setInsertionPoint(op);
        auto load = dyn_cast<memref::LoadOp>(op);
        SmallVector<Type, 1> types;
        if (load)
          types.push_back(rewriter.getI32Type());
        SmallVector<Value> loaded =
            inPlace(types, [&](bool shared) -> SmallVector<Value> {
              auto [words, at] = slotWord(shared, word);
              if (load)
                return {loadShared(words, at)};
              storeShared(words, at,
                          cast<memref::StoreOp>(op).getValueToStore());
              return {};
            });
        if (load)
          rewriter.replaceOp(op, loaded.front());
        else
          rewriter.eraseOp(op);
      }
    };
    // Copy in, at the start of the subroutine, the words it may read before
    // it writes them, and those it writes on some paths only (see above). A
    // word written at the top level of the body before any read (the frame
    // the entry builds) needs no copy.
    Block &body = region.front();
    std::set<int64_t> writtenFirst, inWordSet;
    for (Operation &op : body) {
      if (isa<memref::StoreOp>(op)) {
        if (std::optional<int64_t> word = fieldWordOf(&op))
          if (!inWordSet.count(*word))
            writtenFirst.insert(*word);
        continue;
      }
      op.walk([&](memref::LoadOp load) {
        if (std::optional<int64_t> word = fieldWordOf(load))
          if (!writtenFirst.count(*word))
            inWordSet.insert(*word);
      });
    }
    for (int64_t word : storedWords)
      if (!writtenFirst.count(word))
        inWordSet.insert(word);

    // Copy where that at least halves the frame accesses in the code.
    if (accesses.size() < 2 * (inWordSet.size() + storedWords.size())) {
      LDBG() << accesses.size() << " frame accesses, a branch each";
      return redirectEach();
    }
    LDBG() << accesses.size()
           << " frame accesses on a private copy: " << inWordSet.size()
           << " words in, " << storedWords.size() << " out";

    if (!inWordSet.empty()) {
      rewriter.setInsertionPointToStart(&body);
      SmallVector<int64_t> inWords(inWordSet.begin(), inWordSet.end());
      SmallVector<Type> wordTypes(inWords.size(), rewriter.getI32Type());
      SmallVector<Value> copied = inPlace(wordTypes, [&](bool shared) {
        return llvm::map_to_vector(inWords, [&](int64_t word) {
          auto [words, at] = slotWord(shared, word);
          return loadShared(words, at);
        });
      });
      for (auto [word, value] : llvm::zip(inWords, copied))
        storeShared(privateFrame.words, index(word), value);
    }

    // Copy out, at its end, every word it may have written.
    if (storedWords.empty())
      return;
    rewriter.setInsertionPointToEnd(&body);
    SmallVector<Value> outValues;
    for (int64_t word : storedWords)
      outValues.push_back(loadShared(privateFrame.words, index(word)));
    inPlace(TypeRange{}, [&](bool shared) {
      for (auto [word, value] : llvm::zip(storedWords, outValues)) {
        auto [words, at] = slotWord(shared, word);
        storeShared(words, at, value);
      }
      return SmallVector<Value>();
    });
  }

  /// Each thread takes queued instances W apart and runs the chosen
  /// subroutine on each.
  void buildRun(ArrayRef<func::FuncOp> subroutines) {
    Value chosen = toIndex(loadControl(kChosenToken));
    Value length = toIndex(loadControl(kQueueLength));
    buildLoop(lane, length, index(workgroupSize), [&](Value place) {
      Value slot = toIndex(loadShared(queue, place));
      Value id = toIndex(loadShared(slotIds, slot));
      InstancePosition position =
          delinearizeInstanceId(rewriter, loc, id, nx, ny);
      SmallVector<int64_t> cases =
          llvm::to_vector(llvm::seq<int64_t>(0, tokens));
      auto dispatch = scf::IndexSwitchOp::create(rewriter, loc, TypeRange{},
                                                 chosen, cases, cases.size());
      for (auto [token, region] : llvm::enumerate(dispatch.getCaseRegions())) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.createBlock(&region);
        func::FuncOp subroutine = subroutines[token];
        // A subroutine that does not set the target leaves it as it was.
        privateFrame.storeToken(rewriter, loc, i32(token));
        cloneSubroutineBody(rewriter, subroutine, coroutineArgs);
        // The clones (and the originals, which the caller erases) still use
        // the subroutine's frame argument: lower them onto the private
        // frame, then send the fields to the slot's frame.
        {
          OpBuilder::InsertionGuard lowering(rewriter);
          lowerFrameAccesses(subroutine.getArgument(0), split, privateFrame,
                             position, rewriter);
          redirectToSlotFrame(region, slot);
        }
        Value next = privateFrame.loadToken(rewriter, loc);
        storeShared(slotTokens, slot, next);
        buildIf(equal(next, i32(kTerminatedToken)),
                [&] { atomicAdd(control, index(kReturned), i32(1)); });
        scf::YieldOp::create(rewriter, loc);
      }
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.createBlock(&dispatch.getDefaultRegion());
      scf::YieldOp::create(rewriter, loc);
    });
  }

  SplitOp split;
  FuncOp coroutine;
  gpu::GPUModuleOp kernels;
  int64_t workgroupSize, batch, sharedSlots;
  FrameArrayLayout layout;
  int64_t tokens = 0, bodyWords = 0;

  gpu::GPUFuncOp kernel;
  Value nx, ny, state, extension;
  SmallVector<Value> coroutineArgs;
  Value slotTokens, slotIds, queue, counts, runs, control, sharedFrames;
  Value lane, group;
  FrameStorage privateFrame;
};

struct CoroPersistentToGPUPass
    : coro::impl::CoroPersistentToGPUBase<CoroPersistentToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkWorkgroupSize(module, getArgument(), workgroupSize)))
      return signalPassFailure();
    // Slot numbers, ids and byte counts are i32 in the kernel.
    constexpr int64_t kMaxBatch = int64_t(1) << 20;
    if (batch < 1 || batch > kMaxBatch) {
      mlir::emitError(module.getLoc(), getArgument())
          << ": batch must be in [1, " << kMaxBatch << "], got "
          << static_cast<int64_t>(batch);
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
    if (failed(lowerSplitsWithPlans(
            module, splits, kPersistentPlanAttrName,
            [&](SplitOp split, SymbolTable &symbols, gpu::GPUModuleOp kernels,
                RewriterBase &rewriter) {
              return lowerSplit(split, symbols, kernels, rewriter);
            })))
      return signalPassFailure();
  }

  /// Workgroup memory of the scheduler's own arrays.
  int64_t getSchedulerBytes(SplitOp split) {
    int64_t tokens = split.getSubroutines().size();
    return 4 * (3 * batch + 2 * tokens + kNumControlWords);
  }
  /// All the workgroup memory of the kernel.
  int64_t getWorkgroupBytes(SplitOp split, int64_t sharedSlots) {
    int64_t bodyWords = split.getFrameWords() - kFirstFieldWord;
    return getSchedulerBytes(split) + 4 * sharedSlots * bodyWords;
  }

  /// How many slots keep their frame in workgroup memory: as many as the
  /// budget holds after the scheduler's own arrays; an error if those do
  /// not fit.
  FailureOr<int64_t> getSharedSlots(SplitOp split) {
    int64_t tokens = split.getSubroutines().size();
    int64_t bodyWords = split.getFrameWords() - kFirstFieldWord;
    int64_t schedulerBytes = getSchedulerBytes(split);
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
    return std::min<int64_t>(batch,
                             (sharedMemory - schedulerBytes) / (4 * bodyWords));
  }

  FailureOr<DictionaryAttr> lowerSplit(SplitOp split, SymbolTable &symbols,
                                       gpu::GPUModuleOp kernels,
                                       RewriterBase &rewriter) {
    auto coroutine = symbols.lookup<FuncOp>(split.getCoroutine());
    FailureOr<SmallVector<func::FuncOp>> subroutines =
        split.lookupSubroutines(symbols);
    FailureOr<int64_t> sharedSlots = getSharedSlots(split);
    if (failed(subroutines) || failed(sharedSlots))
      return failure();
    PersistentBuilder builder(split, coroutine, kernels, workgroupSize, batch,
                              *sharedSlots, layout, rewriter);
    builder.build(*subroutines);
    for (func::FuncOp subroutine : *subroutines)
      rewriter.eraseOp(subroutine);
    Builder b(&getContext());
    DictionaryAttr plan = b.getDictionaryAttr({
        b.getNamedAttr("tokens",
                       b.getI64IntegerAttr(split.getSubroutines().size())),
        b.getNamedAttr(
            "frame_words",
            b.getI64IntegerAttr(split.getFrameWords() - kFirstFieldWord)),
        b.getNamedAttr("workgroup_size", b.getI64IntegerAttr(workgroupSize)),
        b.getNamedAttr("batch", b.getI64IntegerAttr(batch)),
        b.getNamedAttr("shared_slots", b.getI64IntegerAttr(*sharedSlots)),
        b.getNamedAttr("workgroup_bytes", b.getI64IntegerAttr(getWorkgroupBytes(
                                              split, *sharedSlots))),
        b.getNamedAttr(
            "layout",
            b.getStringAttr(layout == FrameArrayLayout::SoA ? "soa" : "aos")),
    });
    rewriter.eraseOp(split);
    rewriter.eraseOp(coroutine);
    return plan;
  }
};

} // namespace
