//===- WavefrontToGPU.cpp - the wavefront scheduler on GPUs ---------------===//
//
// Part of the CoroGPU project.
//
// The paper's wavefront scheduler (Sec. 6.2): one kernel per subroutine, the
// frames of `capacity` instance slots in global memory, and scheduling
// kernels that build one queue per subroutine every round, with no host
// read-back. For a coroutine @f with subroutines 0..T-1, the classify
// design:
//
//   f__wf_init            every slot free (token -1)
//   per round:
//     f__wf_classify      refill free slots; category and rank of each slot
//     f__wf_scan          prefix sums; queue places, workgroup counts, flags
//     f__wf_scatter       queue[place] = slot (stable multi-split)
//     f__wf_compact_*     move the alive frames to the first slots (rarely)
//     f__wf_0 .. f__wf_T-1   subroutine t on the slots of its queue
//
// and the queue design (the default), where the subroutine kernels append
// the slots they leave to the next round's queues:
//
//   f__wf_init            every slot in the free ring
//   per round:
//     f__wf_advance       swap the queues; counts, dispatches, new instances
//     f__wf_0 .. f__wf_T-1   subroutine t on its queue, then the appends
//
// The state buffer's words, the kernels' arguments and names are fixed in
// corogpu/runtime/WavefrontABI.h, shared with the runtime's host loop.
//
// Longer than most files (about 1000 lines): the scheduling kernels above
// read and write the same state words and queues, and keeping their
// builders together keeps that protocol readable in one place.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/GPUKernels.h"
#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"
#include "corogpu/runtime/WavefrontABI.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROWAVEFRONTTOGPU
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-wavefront-to-gpu"

using namespace mlir;
using namespace mlir::coro;
namespace wf = corogpu::runtime::wavefront;

namespace {

/// The arguments every wavefront kernel takes (see WavefrontABI.h).
struct KernelArgs {
  Value nx, ny, nz;
  Value frames, queue, ranks, blocks, state, scratch;
  ValueRange coroutineArgs;

  explicit KernelArgs(gpu::GPUFuncOp kernel) {
    Block &entry = kernel.getBody().front();
    nx = entry.getArgument(0);
    ny = entry.getArgument(1);
    nz = entry.getArgument(2);
    frames = entry.getArgument(3);
    queue = entry.getArgument(4);
    ranks = entry.getArgument(5);
    blocks = entry.getArgument(6);
    state = entry.getArgument(7);
    scratch = entry.getArgument(8);
    // Not the workgroup attributions, which follow as block arguments.
    unsigned first = 3 + wf::kNumSchedulerBuffers;
    coroutineArgs =
        entry.getArguments().slice(first, kernel.getNumArguments() - first);
  }
};

/// Builds the kernels of one split coroutine. Small helpers name the
/// arithmetic; every value of the state buffer is an i32.
class WavefrontBuilder : public SchedulerKernelBuilder {
public:
  WavefrontBuilder(SplitOp split, FuncOp coroutine, gpu::GPUModuleOp kernels,
                   int64_t workgroupSize, FrameArrayLayout layout,
                   std::optional<FrameFieldAttr> hint, int64_t buckets,
                   bool queues, bool gridStride, bool subgroupAppends,
                   bool countIterations, RewriterBase &rewriter)
      : SchedulerKernelBuilder(rewriter, coroutine.getLoc()), split(split),
        coroutine(coroutine), kernels(kernels), workgroupSize(workgroupSize),
        layout(layout), hint(hint), buckets(hint ? buckets : 1), queues(queues),
        gridStride(gridStride), subgroupAppends(queues && subgroupAppends),
        countIterations(countIterations) {
    tokens = split.getSubroutines().size();
    categories = tokens * this->buckets;
    frameWords = split.getFrameWords();
  }

  int64_t getNumCategories() const { return categories; }

  void buildSchedulingKernels() {
    if (queues) {
      buildQueueInit();
      buildAdvance();
      return;
    }
    buildInit();
    buildClassify();
    buildScan();
    buildScatter();
    buildCompaction(/*gather=*/true);
    buildCompaction(/*gather=*/false);
  }

  /// The kernel of subroutine `token`: its body runs on the frame of each
  /// slot of its queue. Its frame accesses are lowered; the caller erases
  /// the subroutine.
  LogicalResult buildSubroutineKernel(func::FuncOp subroutine, unsigned token) {
    KernelArgs args = beginKernel(
        wf::getSubroutineKernelName(coroutine.getSymName().str(), token));
    Value first = gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value count =
        toIndex(loadState(args, wf::getTokenWord(token, wf::kTokenCount)));
    // One thread per queued instance, or (grid-stride) a grid of any size
    // whose threads take every grid-size-th instance. Subgroup appends need
    // every lane of a subgroup at the append: the instance then runs under
    // a test of its place, the append follows it, and the stride loop runs
    // to the count rounded up to whole workgroups, so that all threads of a
    // workgroup make the same number of passes.
    Operation *inQueue;
    Block *body;
    Value index;
    if (gridStride) {
      Value threads =
          mul(gpu::GridDimOp::create(rewriter, loc, gpu::Dimension::x),
              this->index(workgroupSize));
      Value bound = count;
      if (subgroupAppends)
        bound = mul(ceilDiv(count, workgroupSize), this->index(workgroupSize));
      auto loop = scf::ForOp::create(rewriter, loc, first, bound, threads);
      inQueue = loop;
      body = loop.getBody();
      index = loop.getInductionVar();
    } else if (subgroupAppends) {
      // The kernel's own block: its lanes past the count append nothing.
      inQueue = nullptr;
      body = rewriter.getInsertionBlock();
      index = first;
    } else {
      auto ifOp =
          scf::IfOp::create(rewriter, loc, lessThanUnsigned(first, count),
                            /*withElse=*/false);
      inQueue = ifOp;
      body = ifOp.thenBlock();
      index = first;
    }
    // With subgroup appends: `if (index < count) {instance; yield its queue
    // and slot} else {yield no queue}`, then the append.
    scf::IfOp instance;
    if (subgroupAppends) {
      rewriter.setInsertionPoint(body->getTerminator());
      instance = scf::IfOp::create(
          rewriter, loc,
          TypeRange{rewriter.getI32Type(), rewriter.getIndexType()},
          lessThanUnsigned(index, count), /*withElse=*/true);
      rewriter.setInsertionPointToEnd(instance.elseBlock());
      scf::YieldOp::create(rewriter, loc,
                           ValueRange{i32(getNoQueueBin()), this->index(0)});
      rewriter.setInsertionPointToEnd(instance.thenBlock());
      if (!inQueue)
        inQueue = instance;
      body = instance.thenBlock();
      scf::YieldOp::create(rewriter, loc,
                           ValueRange{i32(getNoQueueBin()), this->index(0)});
    }
    rewriter.setInsertionPoint(body->getTerminator());
    Value start =
        toIndex(loadState(args, wf::getTokenWord(token, wf::kTokenStart)));
    bool startsInstances = queues && token == kEntryToken;
    // The entry kernel of the queue design takes free slots from the ring
    // (start is its head) and starts the next instances of the grid there.
    Value place = startsInstances ? getFreeRingPlace(args, add(start, index))
                                  : add(start, index);
    Value slot =
        toIndex(memref::LoadOp::create(rewriter, loc, args.queue, place));
    FrameArraySlot frame = getFrame(args, slot);
    if (startsInstances) {
      Value firstNew = loadState(args, wf::kFirstNewInstance);
      frame.storeWord(rewriter, loc, kCoroIdWord, add(firstNew, toI32(index)));
      frame.storeToken(rewriter, loc, i32(kEntryToken));
    }
    Value id = toIndex(frame.loadWord(rewriter, loc, kCoroIdWord));
    InstancePosition position =
        delinearizeInstanceId(rewriter, loc, id, args.nx, args.ny);

    // Read before the clone's frame accesses are lowered.
    SmallVector<int64_t> bins;
    if (subgroupAppends)
      bins = getReachableBins(subroutine, token);
    cloneSubroutineBody(rewriter, subroutine, args.coroutineArgs);
    // The clones still use the subroutine's frame argument: lower them
    // onto this slot's frame (the caller erases the originals).
    if (failed(lowerFrameAccesses(subroutine.getArgument(0), split, frame,
                                  position, inQueue)))
      return failure();
    if (subgroupAppends) {
      rewriter.setInsertionPoint(body->getTerminator());
      body->getTerminator()->setOperands(ValueRange{getQueueBin(frame), slot});
      rewriter.setInsertionPointAfter(instance);
      appendBySubgroup(args, bins, instance.getResult(0),
                       instance.getResult(1));
    } else if (queues) {
      rewriter.setInsertionPoint(body->getTerminator());
      appendToNextQueue(args, getQueueBin(frame), slot);
    }
    // A grid-stride thread runs several instances: the driver's loop limit
    // counts all their loops' passes, and the stride loop's.
    if (countIterations)
      addLoopIterationCounter(gridStride ? inQueue->getBlock() : body,
                              args.state, wf::kMostLoopIterations, rewriter);
    return success();
  }

private:
  //===--------------------------------------------------------------------===//
  // Helpers
  //===--------------------------------------------------------------------===//

  /// a < b, as unsigned integers.
  Value lessThanUnsigned(Value a, Value b) {
    return compare(arith::CmpIPredicate::ult, a, b);
  }
  /// (value + divisor - 1) / divisor; arith.ceildivui has no SPIR-V
  /// lowering.
  Value ceilDiv(Value value, int64_t divisor) {
    auto constant = [&](int64_t c) {
      return value.getType().isIndex() ? index(c) : i32(c);
    };
    return arith::DivUIOp::create(
        rewriter, loc, add(value, constant(divisor - 1)), constant(divisor));
  }

  Value loadState(const KernelArgs &args, Value word) {
    return memref::LoadOp::create(rewriter, loc, args.state, word);
  }
  Value loadState(const KernelArgs &args, uint32_t word) {
    return loadState(args, index(word));
  }
  void storeState(const KernelArgs &args, uint32_t word, Value value) {
    memref::StoreOp::create(rewriter, loc, value, args.state,
                            ValueRange{index(word)});
  }
  void addToState(const KernelArgs &args, uint32_t word, Value value) {
    storeState(args, word, add(loadState(args, word), value));
  }
  /// Writes x = `groups`, y = z = 1 at `word`: indirect dispatch arguments.
  void storeGroups(const KernelArgs &args, uint32_t word, Value groups) {
    storeState(args, word, groups);
    storeState(args, word + 1, i32(1));
    storeState(args, word + 2, i32(1));
  }

  /// Creates the kernel `<coroutine><suffix>` with the common arguments and
  /// sets the insertion point before its return.
  KernelArgs beginKernel(const std::string &name) {
    auto words = MemRefType::get({ShapedType::kDynamic}, rewriter.getI32Type());
    SmallVector<Type> inputs(3, rewriter.getIndexType());
    inputs.append(wf::kNumSchedulerBuffers, words);
    llvm::append_range(inputs, coroutine.getArgumentTypes());
    gpu::GPUFuncOp kernel =
        createKernel(kernels, name, inputs, workgroupSize, loc, rewriter);
    currentKernel = kernel;
    rewriter.setInsertionPoint(kernel.getBody().front().getTerminator());
    return KernelArgs(kernel);
  }
  KernelArgs beginSchedulingKernel(const char *suffix) {
    return beginKernel(coroutine.getSymName().str() + suffix);
  }

  /// Workgroup memory of `size` i32 in the current kernel.
  Value addWorkgroupArray(int64_t size) {
    return SchedulerKernelBuilder::addWorkgroupArray(currentKernel, size);
  }

  Value getCapacity(const KernelArgs &args) {
    return toIndex(loadState(args, wf::kCapacity));
  }
  /// The frame of `slot` (an index) in the frame buffer.
  FrameArraySlot getFrame(const KernelArgs &args, Value slot) {
    return FrameArraySlot(args.frames, frameWords, slot, getCapacity(args),
                          layout);
  }
  /// Workgroups of the slot kernels when all slots are scanned.
  Value getMaxSlotGroups(const KernelArgs &args) {
    return ceilDiv(getCapacity(args), workgroupSize);
  }

  /// The category of an alive slot whose token is `token` (i32):
  /// token * buckets + the bucket of its hint.
  Value getCategory(const FrameArraySlot &frame, Value token) {
    Value category = mul(token, i32(buckets));
    if (!hint)
      return category;
    // Clamped to [0, buckets) at the hint's width (index as i64), so that
    // wide values do not wrap; narrow ones (i1 flags, i8 ids) count as
    // unsigned.
    Value value = frame.loadField(rewriter, loc, *hint);
    if (value.getType().isIndex())
      value = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                         value);
    auto type = cast<IntegerType>(value.getType());
    if (type.getWidth() < 32) {
      value =
          arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), value);
      type = rewriter.getI32Type();
    }
    Value last = arith::ConstantIntOp::create(rewriter, loc, type, buckets - 1);
    Value zero = arith::ConstantIntOp::create(rewriter, loc, type, 0);
    Value bucket = arith::MaxSIOp::create(
        rewriter, loc, arith::MinSIOp::create(rewriter, loc, value, last),
        zero);
    if (type.getWidth() > 32)
      bucket =
          arith::TruncIOp::create(rewriter, loc, rewriter.getI32Type(), bucket);
    return add(category, bucket);
  }

  /// The sum over j in [begin, end) of `term(j)` (i32).
  Value buildSum(Value begin, Value end, Value step,
                 function_ref<Value(Value)> term) {
    auto loop = scf::ForOp::create(
        rewriter, loc, begin, end, step, ValueRange{i32(0)},
        [&](OpBuilder &, Location, Value j, ValueRange sum) {
          scf::YieldOp::create(rewriter, loc, add(sum.front(), term(j)));
        });
    return loop.getResult(0);
  }
  /// Number of entries of the workgroup array `shared` in [0, end) equal
  /// to `value`.
  Value countEqual(Value shared, Value end, Value value) {
    return buildSum(index(0), end, index(1), [&](Value j) {
      Value entry = memref::LoadOp::create(rewriter, loc, shared, j);
      return boolToI32(equal(entry, value));
    });
  }

  //===--------------------------------------------------------------------===//
  // Scheduling kernels
  //===--------------------------------------------------------------------===//

  /// Every slot free.
  void buildInit() {
    KernelArgs args = beginSchedulingKernel(wf::kInitKernel);
    Value slot = gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::x);
    buildIf(lessThanUnsigned(slot, getCapacity(args)), [&] {
      getFrame(args, slot).storeToken(rewriter, loc, i32(kTerminatedToken));
    });
  }

  /// One thread per slot of [0, active): refill, category, rank in the
  /// workgroup, per-workgroup counts.
  void buildClassify() {
    KernelArgs args = beginSchedulingKernel(wf::kClassifyKernel);
    Value shared = addWorkgroupArray(workgroupSize);
    Value sharedBase = addWorkgroupArray(1);
    Value lane = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value group = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value slot = add(mul(group, index(workgroupSize)), lane);
    Value active = toIndex(loadState(args, wf::kActiveSlots));
    Value inRange = lessThanUnsigned(slot, active);
    FrameArraySlot frame = getFrame(args, slot);
    Value returned = i32(kTerminatedToken);
    Value oldToken = buildIfValue(
        inRange, [&] { return frame.loadToken(rewriter, loc); },
        [&] { return returned; });

    // Free slots take the next instances of the grid: numbered within the
    // workgroup, one atomic per workgroup. The refill flag is the same for
    // every thread, so the barriers inside stay in uniform control flow.
    Value refill =
        compare(arith::CmpIPredicate::ne, loadState(args, wf::kRefill), i32(0));
    Value token = buildIfValue(
        refill,
        [&] {
          return buildRefill(args, frame, shared, sharedBase, lane, inRange,
                             oldToken);
        },
        [&] { return oldToken; });

    // Categories: alive slots by token (and hint bucket); free ones get
    // `categories`, which no queue holds.
    Value category = buildIfValue(
        equal(token, returned), [&] { return i32(categories); },
        [&] { return getCategory(frame, token); });
    Value maxGroups = getMaxSlotGroups(args);
    auto storeBlockCount = [&](Value c, Value count) {
      memref::StoreOp::create(rewriter, loc, count, args.blocks,
                              ValueRange{add(mul(c, maxGroups), group)});
    };
    Value rank;
    std::optional<CounterPacking> packing = getCounterPacking();
    if (usesHistogram(packing)) {
      // Many categories (sort-by's buckets): a histogram of the workgroup
      // in workgroup memory, whose atomics number the slots of a category.
      // Constant work per slot, where the packed counters' scan grows with
      // the categories; a category's slots are ordered by their atomics
      // rather than by slot, which no result depends on.
      Value histogram = addWorkgroupArray(categories);
      buildLoop(lane, index(categories), index(workgroupSize), [&](Value c) {
        memref::StoreOp::create(rewriter, loc, i32(0), histogram, c);
      });
      gpu::BarrierOp::create(rewriter, loc);
      rank = buildIfValue(
          equal(category, i32(categories)), [&] { return i32(0); },
          [&] {
            return memref::AtomicRMWOp::create(
                rewriter, loc, arith::AtomicRMWKind::addi, i32(1), histogram,
                ValueRange{toIndex(category)});
          });
      gpu::BarrierOp::create(rewriter, loc);
      buildLoop(lane, index(categories), index(workgroupSize), [&](Value c) {
        storeBlockCount(c, memref::LoadOp::create(rewriter, loc, histogram, c));
      });
    } else if (packing) {
      // Counters of every category packed into words, scanned over the
      // workgroup in log2(workgroupSize) steps.
      Value counters = addWorkgroupArray(workgroupSize * packing->words);
      for (int64_t word = 0; word < packing->words; ++word) {
        Value first = i32(word * packing->perWord);
        Value inWord = arith::AndIOp::create(
            rewriter, loc, compare(arith::CmpIPredicate::sge, category, first),
            compare(arith::CmpIPredicate::slt, category,
                    i32((word + 1) * packing->perWord)));
        Value shift =
            mul(select(inWord,
                       arith::SubIOp::create(rewriter, loc, category, first),
                       i32(0)),
                i32(packing->bits));
        Value mine =
            select(inWord, arith::ShLIOp::create(rewriter, loc, i32(1), shift),
                   i32(0));
        memref::StoreOp::create(
            rewriter, loc, mine, counters,
            ValueRange{add(index(word * workgroupSize), lane)});
      }
      buildInclusiveScan(counters, packing->words, lane);
      // The counter of category `c` in the scan at `at` (a lane).
      auto readCounter = [&](Value c, Value at) {
        Value perWord = i32(packing->perWord);
        Value word = toIndex(arith::DivUIOp::create(rewriter, loc, c, perWord));
        Value shift = mul(arith::RemUIOp::create(rewriter, loc, c, perWord),
                          i32(packing->bits));
        Value packed = memref::LoadOp::create(
            rewriter, loc, counters,
            ValueRange{add(mul(word, index(workgroupSize)), at)});
        Value mask = i32((int64_t(1) << packing->bits) - 1);
        return arith::AndIOp::create(
            rewriter, loc, arith::ShRUIOp::create(rewriter, loc, packed, shift),
            mask);
      };
      rank = buildIfValue(
          equal(category, i32(categories)), [&] { return i32(0); },
          [&] {
            // The scan is inclusive: the slot counts itself.
            return arith::SubIOp::create(rewriter, loc,
                                         readCounter(category, lane), i32(1));
          });
      buildLoop(lane, index(categories), index(workgroupSize), [&](Value c) {
        storeBlockCount(c, readCounter(toI32(c), index(workgroupSize - 1)));
      });
    } else {
      // Too many categories to pack: count them one by one.
      gpu::BarrierOp::create(rewriter, loc); // Everyone has read `shared`.
      memref::StoreOp::create(rewriter, loc, category, shared, lane);
      gpu::BarrierOp::create(rewriter, loc);
      rank = countEqual(shared, lane, category);
      buildLoop(lane, index(categories), index(workgroupSize), [&](Value c) {
        storeBlockCount(c, countEqual(shared, index(workgroupSize), toI32(c)));
      });
    }
    buildIf(inRange, [&] {
      memref::StoreOp::create(rewriter, loc, rank, args.ranks, slot);
    });
  }

  /// How per-category counters of a workgroup pack into i32 words: each
  /// holds up to workgroupSize, so `bits` bits, `perWord` per word.
  struct CounterPacking {
    int64_t bits, perWord, words;
  };
  /// None when classify would need more than 16 KiB of workgroup memory,
  /// the least Vulkan guarantees, with the packed counters.
  std::optional<CounterPacking> getCounterPacking() const {
    int64_t bits = workgroupSize < 256 ? 8 : workgroupSize < 65536 ? 16 : 32;
    int64_t perWord = 32 / bits;
    int64_t words = (categories + perWord - 1) / perWord;
    if (!fitsClassifyMemory(workgroupSize * words))
      return std::nullopt;
    return CounterPacking{bits, perWord, words};
  }

  /// Whether classify counts the categories in a histogram: where the
  /// packed counters take more than four words per lane (more than 16
  /// categories with workgroups under 256 threads, as sort-by's buckets
  /// make), whose scan then costs more per slot than one atomic, and where
  /// the histogram fits in 16 KiB beside the refill's arrays.
  bool usesHistogram(const std::optional<CounterPacking> &packing) const {
    return fitsClassifyMemory(categories) && (!packing || packing->words > 4);
  }

  /// Whether classify's workgroup memory fits in 16 KiB, the least Vulkan
  /// guarantees, with `counterWords` words counting the categories: beside
  /// them, the free-slot prefix sums and the workgroup's first instance.
  bool fitsClassifyMemory(int64_t counterWords) const {
    return (counterWords + workgroupSize + 1) * 4 <= 16 * 1024;
  }

  /// Inclusive prefix sums over the lanes of the workgroup, in place, of
  /// `words` arrays of workgroupSize i32 stored one after the other in
  /// `counters` (Hillis-Steele: log2(workgroupSize) steps). Every thread of
  /// the workgroup must call it.
  void buildInclusiveScan(Value counters, int64_t words, Value lane) {
    gpu::BarrierOp::create(rewriter, loc);
    for (int64_t offset = 1; offset < workgroupSize; offset *= 2) {
      Value hasLeft = compare(arith::CmpIPredicate::uge, lane, index(offset));
      SmallVector<Value> left;
      for (int64_t word = 0; word < words; ++word) {
        left.push_back(buildIfValue(
            hasLeft,
            [&] {
              Value at = arith::SubIOp::create(
                  rewriter, loc, add(index(word * workgroupSize), lane),
                  index(offset));
              return memref::LoadOp::create(rewriter, loc, counters, at);
            },
            [&] { return i32(0); }));
      }
      gpu::BarrierOp::create(rewriter, loc);
      for (int64_t word = 0; word < words; ++word) {
        Value at = add(index(word * workgroupSize), lane);
        Value sum = add(memref::LoadOp::create(rewriter, loc, counters, at),
                        left[word]);
        memref::StoreOp::create(rewriter, loc, sum, counters, at);
      }
      gpu::BarrierOp::create(rewriter, loc);
    }
  }

  /// The refill part of classify: returns the slot's token afterwards.
  Value buildRefill(const KernelArgs &args, const FrameArraySlot &frame,
                    Value shared, Value sharedBase, Value lane, Value inRange,
                    Value oldToken) {
    Value returned = i32(kTerminatedToken);
    Value free = arith::AndIOp::create(rewriter, loc, inRange,
                                       equal(oldToken, returned));
    Value mine = boolToI32(free);
    memref::StoreOp::create(rewriter, loc, mine, shared, lane);
    buildInclusiveScan(shared, /*words=*/1, lane);
    Value freeBefore = arith::SubIOp::create(
        rewriter, loc, memref::LoadOp::create(rewriter, loc, shared, lane),
        mine);
    Value freeTotal = memref::LoadOp::create(
        rewriter, loc, shared, ValueRange{index(workgroupSize - 1)});
    buildIf(equal(lane, index(0)), [&] {
      Value base = buildIfValue(
          compare(arith::CmpIPredicate::ne, freeTotal, i32(0)),
          [&] {
            return memref::AtomicRMWOp::create(
                rewriter, loc, arith::AtomicRMWKind::addi, freeTotal,
                args.state, ValueRange{index(wf::kNextInstance)});
          },
          [&] { return i32(0); });
      memref::StoreOp::create(rewriter, loc, base, sharedBase,
                              ValueRange{index(0)});
    });
    gpu::BarrierOp::create(rewriter, loc);
    return buildIfValue(
        free,
        [&] {
          Value base = memref::LoadOp::create(rewriter, loc, sharedBase,
                                              ValueRange{index(0)});
          Value id = add(base, freeBefore);
          Value started =
              lessThanUnsigned(id, loadState(args, wf::kTotalInstances));
          buildIf(started, [&] {
            frame.storeWord(rewriter, loc, kCoroIdWord, id);
            frame.storeToken(rewriter, loc, i32(kEntryToken));
          });
          return select(started, i32(kEntryToken), returned);
        },
        [&] { return oldToken; });
  }

  /// One workgroup: prefix sums over workgroups (one thread per category),
  /// then over categories (thread 0), and the decisions of the round.
  void buildScan() {
    KernelArgs args = beginSchedulingKernel(wf::kScanKernel);
    Value totals = addWorkgroupArray(categories);
    Value partial = addWorkgroupArray(workgroupSize);
    Value lane = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value activeWord = loadState(args, wf::kActiveSlots);
    Value groups = ceilDiv(toIndex(activeWord), workgroupSize);
    Value maxGroups = getMaxSlotGroups(args);
    // Many workgroups: the whole workgroup scans one category at a time,
    // each thread a chunk of workgroups. Few: one thread per category. The
    // choice is the same for every thread (barriers stay uniform).
    Value cooperative =
        compare(arith::CmpIPredicate::uge, groups, index(categories));
    auto choice = scf::IfOp::create(rewriter, loc, cooperative,
                                    /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(choice.thenBlock()->getTerminator());
      buildChunkedScan(args, totals, partial, lane, groups, maxGroups);
      rewriter.setInsertionPoint(choice.elseBlock()->getTerminator());
      buildLoop(lane, index(categories), index(workgroupSize), [&](Value c) {
        Value total = buildExclusiveScan(args, add(mul(c, maxGroups), index(0)),
                                         index(0), groups, i32(0));
        memref::StoreOp::create(rewriter, loc, total, totals, c);
      });
    }
    gpu::BarrierOp::create(rewriter, loc);
    buildIf(equal(lane, index(0)), [&] { buildRoundDecisions(args, totals); });
  }

  /// Rewrites blocks[base + g] for g in [begin, end) with their exclusive
  /// prefix sums, starting at `start`; returns start + their sum.
  Value buildExclusiveScan(const KernelArgs &args, Value base, Value begin,
                           Value end, Value start) {
    auto loop = scf::ForOp::create(
        rewriter, loc, begin, end, index(1), ValueRange{start},
        [&](OpBuilder &, Location, Value g, ValueRange running) {
          Value at = add(base, g);
          Value count = memref::LoadOp::create(rewriter, loc, args.blocks, at);
          memref::StoreOp::create(rewriter, loc, running.front(), args.blocks,
                                  at);
          scf::YieldOp::create(rewriter, loc, add(running.front(), count));
        });
    return loop.getResult(0);
  }

  /// For each category in turn: each thread sums its chunk of workgroups,
  /// the chunk sums are scanned in workgroup memory, and each thread
  /// rewrites its chunk from its chunk's offset.
  void buildChunkedScan(const KernelArgs &args, Value totals, Value partial,
                        Value lane, Value groups, Value maxGroups) {
    Value chunk = ceilDiv(groups, workgroupSize);
    Value begin = mul(lane, chunk);
    Value end =
        arith::MinUIOp::create(rewriter, loc, add(begin, chunk), groups);
    buildLoop(index(0), index(categories), index(1), [&](Value c) {
      Value base = mul(c, maxGroups);
      Value local = buildSum(begin, end, index(1), [&](Value g) {
        return memref::LoadOp::create(rewriter, loc, args.blocks,
                                      ValueRange{add(base, g)});
      });
      memref::StoreOp::create(rewriter, loc, local, partial, lane);
      buildInclusiveScan(partial, /*words=*/1, lane);
      Value inclusive = memref::LoadOp::create(rewriter, loc, partial, lane);
      Value offset = arith::SubIOp::create(rewriter, loc, inclusive, local);
      buildExclusiveScan(args, base, begin, end, offset);
      buildIf(equal(lane, index(workgroupSize - 1)), [&] {
        memref::StoreOp::create(rewriter, loc, inclusive, totals, c);
      });
      // Everyone has read `partial` before the next category writes it.
      gpu::BarrierOp::create(rewriter, loc);
    });
  }

  void buildRoundDecisions(const KernelArgs &args, Value totals) {
    // Queue places of the categories.
    uint32_t offsetsWord = wf::getCategoryOffsetsWord(tokens);
    auto offsets = scf::ForOp::create(
        rewriter, loc, index(0), index(categories), index(1),
        ValueRange{i32(0)},
        [&](OpBuilder &, Location, Value c, ValueRange running) {
          memref::StoreOp::create(rewriter, loc, running.front(), args.state,
                                  ValueRange{add(index(offsetsWord), c)});
          Value total = memref::LoadOp::create(rewriter, loc, totals, c);
          scf::YieldOp::create(rewriter, loc, add(running.front(), total));
        });
    Value alive = offsets.getResult(0);

    // Instances per token; with the "most first" order only the largest
    // queue runs.
    SmallVector<Value> counts;
    Value largest = i32(-1), best = i32(0);
    for (unsigned token = 0; token < tokens; ++token) {
      Value count =
          buildSum(index(token * buckets), index((token + 1) * buckets),
                   index(1), [&](Value c) {
                     return memref::LoadOp::create(rewriter, loc, totals, c);
                   });
      counts.push_back(count);
      Value larger = compare(arith::CmpIPredicate::sgt, count, largest);
      largest = select(larger, count, largest);
      best = select(larger, i32(token), best);
    }
    Value mostFirst = compare(arith::CmpIPredicate::ne,
                              loadState(args, wf::kOrderPolicy), i32(0));
    Value launches = i32(0);
    for (unsigned token = 0; token < tokens; ++token) {
      Value skipped = arith::AndIOp::create(
          rewriter, loc, mostFirst,
          compare(arith::CmpIPredicate::ne, best, i32(token)));
      Value count = select(skipped, i32(0), counts[token]);
      Value start = memref::LoadOp::create(
          rewriter, loc, args.state,
          ValueRange{index(offsetsWord + token * buckets)});
      storeState(args, wf::getTokenWord(token, wf::kTokenStart), start);
      storeState(args, wf::getTokenWord(token, wf::kTokenCount), count);
      storeGroups(args, wf::getTokenWord(token, wf::kTokenGroups),
                  ceilDiv(count, workgroupSize));
      addToState(args, wf::getTokenWord(token, wf::kTokenTotal), count);
      launches =
          add(launches,
              boolToI32(compare(arith::CmpIPredicate::ne, count, i32(0))));
    }
    addToState(args, wf::kLaunches, launches);
    storeState(args, wf::kAlive, alive);
    Value zero = i32(0);
    Value anyAlive = compare(arith::CmpIPredicate::ne, alive, zero);
    addToState(args, wf::kRounds, boolToI32(anyAlive));

    // Termination, refill and compaction for the next round.
    Value capacity = loadState(args, wf::kCapacity);
    Value active = loadState(args, wf::kActiveSlots);
    Value exhausted =
        compare(arith::CmpIPredicate::uge, loadState(args, wf::kNextInstance),
                loadState(args, wf::kTotalInstances));
    Value notExhausted = arith::XOrIOp::create(
        rewriter, loc, exhausted,
        arith::ConstantIntOp::create(rewriter, loc, 1, 1));
    Value done =
        arith::AndIOp::create(rewriter, loc, equal(alive, zero), exhausted);
    storeState(args, wf::kDone, boolToI32(done));
    Value everyRound = equal(loadState(args, wf::kRefillPolicy), zero);
    Value belowHalf = lessThanUnsigned(mul(alive, i32(2)), capacity);
    storeState(
        args, wf::kRefill,
        boolToI32(arith::AndIOp::create(
            rewriter, loc, notExhausted,
            arith::OrIOp::create(rewriter, loc, everyRound, belowHalf))));
    Value percent = loadState(args, wf::kCompactPercent);
    // Nothing to move once nothing is alive.
    Value compact = arith::AndIOp::create(
        rewriter, loc,
        arith::AndIOp::create(
            rewriter, loc, exhausted,
            arith::AndIOp::create(rewriter, loc, anyAlive,
                                  lessThanUnsigned(alive, active))),
        lessThanUnsigned(mul(alive, i32(100)), mul(percent, active)));
    storeGroups(args, wf::kCompactGroups,
                select(compact, ceilDiv(alive, workgroupSize), zero));
    addToState(args, wf::kCompactions, boolToI32(compact));
    storeState(args, wf::kRoundSlots, active);
    storeGroups(args, wf::kScatterGroups, ceilDiv(active, workgroupSize));
    // Once done, no slot is scanned again: the rounds left in the
    // submission dispatch no workgroups.
    Value nextActive = select(done, zero, select(compact, alive, active));
    storeState(args, wf::kActiveSlots, nextActive);
    storeGroups(args, wf::kSlotGroups, ceilDiv(nextActive, workgroupSize));
  }

  /// One thread per slot of the round: queue[place] = slot.
  void buildScatter() {
    KernelArgs args = beginSchedulingKernel(wf::kScatterKernel);
    Value lane = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value group = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value slot = add(mul(group, index(workgroupSize)), lane);
    Value roundSlots = toIndex(loadState(args, wf::kRoundSlots));
    buildIf(lessThanUnsigned(slot, roundSlots), [&] {
      FrameArraySlot frame = getFrame(args, slot);
      Value token = frame.loadToken(rewriter, loc);
      buildIf(
          compare(arith::CmpIPredicate::ne, token, i32(kTerminatedToken)), [&] {
            Value category = toIndex(getCategory(frame, token));
            Value offset = loadState(
                args, add(index(wf::getCategoryOffsetsWord(tokens)), category));
            Value before = memref::LoadOp::create(
                rewriter, loc, args.blocks,
                ValueRange{add(mul(category, getMaxSlotGroups(args)), group)});
            Value rank =
                memref::LoadOp::create(rewriter, loc, args.ranks, slot);
            Value place = toIndex(add(add(offset, before), rank));
            memref::StoreOp::create(rewriter, loc, toI32(slot), args.queue,
                                    place);
          });
    });
  }

  /// Compaction, in two kernels so that no frame is overwritten before it
  /// is copied: the alive frames (queue order) to `scratch`, then back to
  /// the first slots, and the queue then names those slots.
  void buildCompaction(bool gather) {
    KernelArgs args = beginSchedulingKernel(gather ? wf::kCompactGatherKernel
                                                   : wf::kCompactScatterKernel);
    Value position = gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::x);
    // Backends without indirect dispatch launch these kernels every round:
    // the scan's workgroup count says whether this round compacts.
    Value compacting = compare(arith::CmpIPredicate::ne,
                               loadState(args, wf::kCompactGroups), i32(0));
    Value alive = toIndex(loadState(args, wf::kAlive));
    Value copies = arith::AndIOp::create(rewriter, loc, compacting,
                                         lessThanUnsigned(position, alive));
    buildIf(copies, [&] {
      Value slot = gather ? toIndex(memref::LoadOp::create(
                                rewriter, loc, args.queue, position))
                          : position;
      FrameArraySlot frame = getFrame(args, slot);
      // The scratch frames are AoS, in queue order.
      FrameArraySlot scratch(args.scratch, frameWords, position,
                             /*numSlots=*/Value(), FrameArrayLayout::AoS);
      const FrameArraySlot &from = gather ? frame : scratch;
      const FrameArraySlot &to = gather ? scratch : frame;
      // Word by word, so that one word is live at a time (copyFrameWords
      // loads them all first: 48 registers instead of 28 on sm_90 for the
      // path tracer's frames).
      for (int64_t word = 0; word < frameWords; ++word)
        to.storeWord(rewriter, loc, word, from.loadWord(rewriter, loc, word));
      if (!gather)
        memref::StoreOp::create(rewriter, loc, toI32(position), args.queue,
                                position);
    });
  }

  //===--------------------------------------------------------------------===//
  // The queue design
  //===--------------------------------------------------------------------===//

  Value getFreeRingStart(const KernelArgs &args) {
    return mul(getCapacity(args), index(2 * tokens));
  }
  /// Where entry `position` (any count: the ring wraps) of the free ring
  /// is in the queue buffer.
  Value getFreeRingPlace(const KernelArgs &args, Value position) {
    return add(getFreeRingStart(args),
               arith::RemUIOp::create(rewriter, loc, position,
                                      mul(getCapacity(args), index(2))));
  }
  /// Where the queue of `token` in `half` of the queue buffer starts (the
  /// layout of WavefrontABI.h), in the type of the values given.
  Value getQueueStart(Value half, Value token, Value capacity) {
    Value tokenCount = half.getType().isIndex() ? index(tokens) : i32(tokens);
    return mul(add(mul(half, tokenCount), token), capacity);
  }

  /// Where a slot goes after its subroutine ran: the queue of the token its
  /// instance now waits at, or bin `tokens` (the free ring) once it
  /// returned.
  Value getQueueBin(const FrameArraySlot &frame) {
    Value token = frame.loadToken(rewriter, loc);
    return select(equal(token, i32(kTerminatedToken)), i32(tokens), token);
  }
  /// The bins subroutine `token` may leave a slot in: the tokens it sets
  /// (the free ring for the termination token), and its own unless its
  /// body sets a target on every path (one in its top-level block; the
  /// split's exits do), since a path that sets none leaves it in place.
  SmallVector<int64_t> getReachableBins(func::FuncOp subroutine,
                                        unsigned token) {
    llvm::SetVector<int64_t> bins;
    if (subroutine.getBody().empty() ||
        llvm::none_of(subroutine.getBody().front(),
                      [](Operation &op) { return isa<FrameSetTargetOp>(op); }))
      bins.insert(token);
    subroutine.walk([&](FrameSetTargetOp setTarget) {
      // The attribute is an unsigned 32-bit integer: -1 reads 2^32 - 1.
      auto target = static_cast<int32_t>(setTarget.getToken());
      bins.insert(target == kTerminatedToken ? tokens : target);
    });
    SmallVector<int64_t> sorted(bins.begin(), bins.end());
    llvm::sort(sorted);
    return sorted;
  }
  /// The bin of a lane that ran no instance (subgroup appends).
  int64_t getNoQueueBin() const { return tokens + 1; }

  /// Puts `slot` at `place` of `bin` (getQueueBin): the next round's queue
  /// or the free ring.
  void storeAppended(const KernelArgs &args, Value bin, Value place,
                     Value slot) {
    Value binIndex = toIndex(bin);
    Value returned = equal(bin, i32(tokens));
    Value next = arith::SubIOp::create(
        rewriter, loc, index(1), toIndex(loadState(args, wf::kQueueParity)));
    Value queued = add(getQueueStart(next, binIndex, getCapacity(args)), place);
    Value freed = getFreeRingPlace(args, place);
    memref::StoreOp::create(rewriter, loc, toI32(slot), args.queue,
                            select(returned, freed, queued));
  }
  /// The state word that counts the appends to `bin`.
  Value getAppendCounter(Value bin) {
    Value returned = equal(bin, i32(tokens));
    return select(returned, index(wf::kFreeTail),
                  add(index(wf::kFirstTokenWord + wf::kTokenNext),
                      mul(toIndex(bin), index(wf::kWordsPerToken))));
  }

  /// After a subroutine ran on `slot`: the slot joins `bin`, with one
  /// atomic per slot. Aggregating the appends per workgroup (ranks from
  /// workgroup-memory atomics, one global atomic per queue) needed two
  /// barriers after the subroutine, and lavapipe then ran the BVH path
  /// tracer's intersect kernel 22 % slower (its invocations run to each
  /// barrier one after another); appendBySubgroup needs none.
  void appendToNextQueue(const KernelArgs &args, Value bin, Value slot) {
    Value place = toIndex(memref::AtomicRMWOp::create(
        rewriter, loc, arith::AtomicRMWKind::addi, i32(1), args.state,
        ValueRange{getAppendCounter(bin)}));
    storeAppended(args, bin, place, slot);
  }

  /// The set bits of the i32 `word`, with shifts, masks and a multiply
  /// (MLIR 22 lowers no math.ctpop to SPIR-V).
  Value countBits(Value word) {
    auto shift = [&](Value value, int64_t bits) {
      return arith::ShRUIOp::create(rewriter, loc, value, i32(bits));
    };
    auto mask = [&](Value value, int64_t bits) {
      return arith::AndIOp::create(rewriter, loc, value, i32(bits));
    };
    Value pairs = sub(word, mask(shift(word, 1), 0x55555555));
    Value nibbles =
        add(mask(pairs, 0x33333333), mask(shift(pairs, 2), 0x33333333));
    Value bytes = mask(add(nibbles, shift(nibbles, 4)), 0x0F0F0F0F);
    return shift(mul(bytes, i32(0x01010101)), 24);
  }

  /// The same for every lane of a subgroup at once, in code that all its
  /// lanes reach (lanes without an instance have the bin getNoQueueBin):
  /// for each bin, the sum of the lane bits of its lanes is its ballot; a
  /// lane's place among them is the number of bits below its own, the lowest
  /// lane adds them all to the bin's counter with one atomic, and an
  /// add-reduction gives the others its result. Only the `bins` the subroutine
  /// reaches get ballots. Ballots have 32 bits: lanes past the 32nd (subgroups
  /// of 64) append alone.
  void appendBySubgroup(const KernelArgs &args, ArrayRef<int64_t> bins,
                        Value bin, Value slot) {
    auto reduce = [&](gpu::AllReduceOperation kind, Value value) {
      return gpu::SubgroupReduceOp::create(rewriter, loc, value, kind,
                                           /*uniform=*/true)
          .getResult();
    };
    Value lane = toI32(gpu::LaneIdOp::create(rewriter, loc, nullptr));
    Value zero = i32(0);
    // A shift by 32 or more is undefined: such lanes have no bit.
    Value hasBit = compare(arith::CmpIPredicate::ult, lane, i32(32));
    Value bit = select(
        hasBit, arith::ShLIOp::create(rewriter, loc, i32(1), lane), zero);
    Value ballot = zero;
    SmallVector<Value> inBins;
    for (int64_t b : bins) {
      Value inBin = equal(bin, i32(b));
      inBins.push_back(inBin);
      // The lanes' bits are distinct: their sum is their union (and MLIR
      // lowers no or-reduction to SPIR-V).
      Value binBallot =
          reduce(gpu::AllReduceOperation::ADD, select(inBin, bit, zero));
      ballot = select(inBin, binBallot, ballot);
    }
    // Lanes in no ballot (with no bit, or whose bin has none: none should)
    // append on their own: ballot 0 makes them lead, with a count of 1, and
    // they hand their place to no other lane.
    assert(!inBins.empty() && "a subroutine reaches its own bin or a target");
    Value inAnyBin = inBins.front();
    for (Value inBin : ArrayRef<Value>(inBins).drop_front())
      inAnyBin = arith::OrIOp::create(rewriter, loc, inAnyBin, inBin);
    Value inBallot = arith::AndIOp::create(rewriter, loc, hasBit, inAnyBin);
    ballot = select(inBallot, ballot, zero);
    Value rank = countBits(
        arith::AndIOp::create(rewriter, loc, ballot, sub(bit, i32(1))));
    Value appends = lessThanUnsigned(bin, i32(getNoQueueBin()));
    Value leads =
        arith::AndIOp::create(rewriter, loc, appends, equal(rank, zero));
    Value first = buildIfValue(
        leads,
        [&] {
          Value total = select(inBallot, countBits(ballot), i32(1));
          return memref::AtomicRMWOp::create(
              rewriter, loc, arith::AtomicRMWKind::addi, total, args.state,
              ValueRange{getAppendCounter(bin)});
        },
        [&] { return zero; });
    Value shares = arith::AndIOp::create(rewriter, loc, leads, inBallot);
    Value ballotBase = zero;
    for (Value inBin : inBins) {
      Value leader = arith::AndIOp::create(rewriter, loc, shares, inBin);
      Value binBase =
          reduce(gpu::AllReduceOperation::ADD, select(leader, first, zero));
      ballotBase = select(inBin, binBase, ballotBase);
    }
    Value base = select(inBallot, ballotBase, first);
    buildIf(appends,
            [&] { storeAppended(args, bin, toIndex(add(base, rank)), slot); });
  }

  /// Every slot in the free ring.
  void buildQueueInit() {
    KernelArgs args = beginSchedulingKernel(wf::kInitKernel);
    Value slot = gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::x);
    buildIf(lessThanUnsigned(slot, getCapacity(args)), [&] {
      memref::StoreOp::create(rewriter, loc, toI32(slot), args.queue,
                              add(getFreeRingStart(args), slot));
    });
  }

  /// One thread, before the subroutine kernels of a round: the queues
  /// filled last round become this round's, new instances take free
  /// slots, and the round's counts, dispatch sizes, statistics and
  /// termination follow.
  void buildAdvance() {
    KernelArgs args = beginSchedulingKernel(wf::kAdvanceKernel);
    Value lane = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    buildIf(equal(lane, index(0)), [&] {
      Value capacity = loadState(args, wf::kCapacity);
      Value parity = arith::SubIOp::create(rewriter, loc, i32(1),
                                           loadState(args, wf::kQueueParity));
      storeState(args, wf::kQueueParity, parity);
      Value alive = i32(0), launches = i32(0);
      auto setCount = [&](unsigned token, Value count, Value start) {
        storeState(args, wf::getTokenWord(token, wf::kTokenCount), count);
        storeState(args, wf::getTokenWord(token, wf::kTokenStart), start);
        storeGroups(args, wf::getTokenWord(token, wf::kTokenGroups),
                    ceilDiv(count, workgroupSize));
        addToState(args, wf::getTokenWord(token, wf::kTokenTotal), count);
        alive = add(alive, count);
        launches = add(launches, boolToI32(notEqual(count, i32(0))));
      };
      for (unsigned token = 0; token < tokens; ++token) {
        if (token == kEntryToken)
          continue;
        uint32_t next = wf::getTokenWord(token, wf::kTokenNext);
        Value count = loadState(args, next);
        storeState(args, next, i32(0));
        setCount(token, count, getQueueStart(parity, i32(token), capacity));
      }
      // New instances on free slots, from the head of the ring.
      Value head = loadState(args, wf::kFreeHead);
      Value free = arith::SubIOp::create(rewriter, loc,
                                         loadState(args, wf::kFreeTail), head);
      Value started = loadState(args, wf::kNextInstance);
      Value total = loadState(args, wf::kTotalInstances);
      Value remaining =
          select(lessThanUnsigned(started, total),
                 arith::SubIOp::create(rewriter, loc, total, started), i32(0));
      Value fresh = arith::MinUIOp::create(rewriter, loc, free, remaining);
      setCount(kEntryToken, fresh, head);
      Value ringSize = mul(capacity, i32(2));
      Value moved = add(head, fresh);
      Value newHead =
          select(lessThanUnsigned(moved, ringSize), moved,
                 arith::SubIOp::create(rewriter, loc, moved, ringSize));
      storeState(args, wf::kFreeHead, newHead);
      storeState(
          args, wf::kFreeTail,
          add(newHead, arith::SubIOp::create(rewriter, loc, free, fresh)));
      storeState(args, wf::kFirstNewInstance, started);
      storeState(args, wf::kNextInstance, add(started, fresh));
      storeState(args, wf::kAlive, alive);
      Value anyAlive = notEqual(alive, i32(0));
      addToState(args, wf::kRounds, boolToI32(anyAlive));
      addToState(args, wf::kLaunches, launches);
      // Nothing alive means nothing was left to start either.
      storeState(args, wf::kDone, boolToI32(equal(alive, i32(0))));
    });
  }

  SplitOp split;
  FuncOp coroutine;
  gpu::GPUModuleOp kernels;
  int64_t workgroupSize;
  FrameArrayLayout layout;
  std::optional<FrameFieldAttr> hint;
  int64_t buckets;
  /// The queue design; otherwise classify.
  bool queues;
  /// Subroutine kernels stride over their queue (grid-stride).
  bool gridStride;
  /// The queue design's appends are one atomic per subgroup and queue.
  bool subgroupAppends;
  /// Count loop iterations into kMostLoopIterations (count-loop-iterations).
  bool countIterations;
  int64_t tokens = 0, categories = 0, frameWords = 0;
  gpu::GPUFuncOp currentKernel;
};

struct CoroWavefrontToGPUPass
    : coro::impl::CoroWavefrontToGPUBase<CoroWavefrontToGPUPass> {
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
    if (!sortBy.empty() && hintBuckets < 1) {
      mlir::emitError(module.getLoc(), getArgument())
          << ": hint-buckets must be positive, got "
          << static_cast<int64_t>(hintBuckets);
      return signalPassFailure();
    }
    if (failed(rejectLaunchesOfSplitCoroutines(
            module, "wavefront",
            "its host loop runs in the CoroGPU runtime (coro-run, "
            "corogpu/runtime/Wavefront.h)")))
      return signalPassFailure();

    SmallVector<SplitOp> splits(module.getOps<SplitOp>());
    if (splits.empty())
      return;
    if (failed(checkSortByIsUsed(module, splits)))
      return signalPassFailure();
    if (failed(lowerSplitsWithPlans(module, splits, *this)))
      return signalPassFailure();
  }

  /// The promise field named by sort-by in `split`, if it has one; an
  /// error if it is not an integer.
  FailureOr<std::optional<FrameFieldAttr>> findHintField(SplitOp split) {
    if (sortBy.empty())
      return std::optional<FrameFieldAttr>();
    for (FrameFieldAttr field : split.getFrameFields()) {
      if (!field.getPromise() || field.getName() != sortBy)
        continue;
      Type type = field.getType();
      if (!type.isIndex() && !type.isSignlessInteger()) {
        split.emitOpError("sort-by field \"")
            << sortBy << "\" must be an integer or index, not " << type;
        return failure();
      }
      return std::optional<FrameFieldAttr>(field);
    }
    return std::optional<FrameFieldAttr>();
  }

  /// Fails unless some coroutine of `splits` has the sort-by promise.
  LogicalResult checkSortByIsUsed(ModuleOp module, ArrayRef<SplitOp> splits) {
    if (sortBy.empty())
      return success();
    llvm::SetVector<StringRef> promises;
    for (SplitOp split : splits)
      for (FrameFieldAttr field : split.getFrameFields())
        if (field.getPromise()) {
          if (field.getName() == sortBy)
            return success();
          promises.insert(field.getName().getValue());
        }
    // Not module.emitError: the note would print the whole module.
    mlir::emitError(module.getLoc(), getArgument())
        << ": no coroutine has a promise field \"" << sortBy
        << "\" to sort by (promise fields: "
        << (promises.empty() ? "none" : llvm::join(promises, ", ")) << ")";
    return failure();
  }

  LogicalResult lowerSplit(SplitOp split, SymbolTable &symbols,
                           gpu::GPUModuleOp kernels, RewriterBase &rewriter) {
    auto coroutine = symbols.lookup<FuncOp>(split.getCoroutine());
    FailureOr<SmallVector<func::FuncOp>> subroutines =
        split.lookupSubroutines(symbols);
    FailureOr<std::optional<FrameFieldAttr>> hint = findHintField(split);
    if (failed(subroutines) || failed(hint))
      return failure();
    bool queues = design == WavefrontDesign::Queues ||
                  (design == WavefrontDesign::Auto && !*hint);
    if (queues && *hint) {
      split.emitOpError("sort-by \"")
          << sortBy
          << "\" needs design=classify: the queue design has no hint buckets";
      return failure();
    }
    // A target must name a subroutine; and the queue design starts
    // instances only from free slots, so an instance that asked to run the
    // entry again would be lost.
    int64_t tokens = split.getSubroutines().size();
    for (func::FuncOp subroutine : *subroutines) {
      WalkResult walk = subroutine.walk([&](FrameSetTargetOp op) {
        int32_t target = op.getToken();
        if (target != kTerminatedToken && (target < 0 || target >= tokens)) {
          op.emitOpError("targets token ")
              << target << ", which no subroutine has (tokens 0 to "
              << tokens - 1 << ", or -1 for the end)";
          return WalkResult::interrupt();
        }
        if (queues && target == kEntryToken) {
          op.emitOpError("targets token 0: the wavefront's queue design "
                         "resumes tokens 1 to ")
              << tokens - 1
              << " (the entry runs once, on a new instance); use "
                 "design=classify";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return failure();
    }
    WavefrontBuilder builder(split, coroutine, kernels, workgroupSize, layout,
                             *hint, hintBuckets, queues, gridStride,
                             subgroupAppends, countLoopIterations, rewriter);
    // The scan keeps one total per category in workgroup memory.
    constexpr int64_t kMaxCategories = 4096;
    if (builder.getNumCategories() > kMaxCategories) {
      split.emitOpError("has ")
          << builder.getNumCategories()
          << " wavefront queues (subroutines x hint-buckets), more than "
          << kMaxCategories;
      return failure();
    }
    builder.buildSchedulingKernels();
    for (auto [token, subroutine] : llvm::enumerate(*subroutines)) {
      if (failed(builder.buildSubroutineKernel(subroutine, token)))
        return failure();
      rewriter.eraseOp(subroutine);
    }
    // The subroutines are named by their tags, in token order.
    plan::setPlan(
        split->getParentOfType<ModuleOp>(), split.getCoroutine(),
        plan::WavefrontPlanAttr::get(
            &getContext(), workgroupSize, split.getSubroutines().size(),
            builder.getNumCategories(), split.getFrameWords(), layout,
            split.getNamesAttr(),
            queues ? WavefrontDesign::Queues : WavefrontDesign::Classify,
            gridStride));
    rewriter.eraseOp(split);
    rewriter.eraseOp(coroutine);
    return success();
  }
};

} // namespace
