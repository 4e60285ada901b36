//===- ClassifyDesign.cpp - the wavefront's classify design ---------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The scheduling kernels of the classify design: every round, classify
// gives each slot its category (token and hint bucket) and its rank in its
// workgroup and reserves the workgroup's places in each category's queue,
// scan turns the category totals into queue offsets and decides the round
// (dispatch sizes, refill, compaction, termination), and scatter writes
// each slot to its place; the compaction kernels move the
// alive frames to the first slots when few are left. The workgroup
// collectives they use (prefix sums, sums) are SchedulerKernelBuilder's.
//
//===----------------------------------------------------------------------===//

#include "WavefrontBuilder.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::wavefront;

void WavefrontBuilder::buildInit() {
  KernelArgs args = beginSchedulingKernel(wf::kInitKernel);
  Value slot = gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::x);
  buildIf(lessThanUnsigned(slot, getCapacity(args)), [&] {
    getFrame(args, slot).storeToken(rewriter, loc, i32(kTerminatedToken));
  });
}

void WavefrontBuilder::buildClassify() {
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
  // The workgroup's `count` slots of category `c` take the next places of
  // the category's queue: one atomic on its counter, whose order decides
  // the order of the workgroups within a category (no result depends on
  // it). This replaces a prefix sum over categories x workgroups in one
  // workgroup, which grew with both.
  Value maxGroups = getMaxSlotGroups(args);
  Value countersWord = index(wf::getCategoryCountersWord(tokens, categories));
  auto reservePlaces = [&](Value c, Value count) {
    Value first = buildIfValue(
        notEqual(count, i32(0)),
        [&] {
          return memref::AtomicRMWOp::create(
              rewriter, loc, arith::AtomicRMWKind::addi, count, args.state,
              ValueRange{add(countersWord, c)});
        },
        [&] { return i32(0); });
    memref::StoreOp::create(rewriter, loc, first, args.blocks,
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
      reservePlaces(c, memref::LoadOp::create(rewriter, loc, histogram, c));
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
      Value shift = mul(
          select(inWord, arith::SubIOp::create(rewriter, loc, category, first),
                 i32(0)),
          i32(packing->bits));
      Value mine = select(
          inWord, arith::ShLIOp::create(rewriter, loc, i32(1), shift), i32(0));
      memref::StoreOp::create(
          rewriter, loc, mine, counters,
          ValueRange{add(index(word * workgroupSize), lane)});
    }
    buildInclusiveScan(counters, packing->words, lane, workgroupSize);
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
      reservePlaces(c, readCounter(toI32(c), index(workgroupSize - 1)));
    });
  } else {
    // Too many categories to pack: count them one by one.
    gpu::BarrierOp::create(rewriter, loc); // Everyone has read `shared`.
    memref::StoreOp::create(rewriter, loc, category, shared, lane);
    gpu::BarrierOp::create(rewriter, loc);
    rank = countEqual(shared, lane, category);
    buildLoop(lane, index(categories), index(workgroupSize), [&](Value c) {
      reservePlaces(c, countEqual(shared, index(workgroupSize), toI32(c)));
    });
  }
  buildIf(inRange, [&] {
    memref::StoreOp::create(rewriter, loc, rank, args.ranks, slot);
  });
}

std::optional<WavefrontBuilder::CounterPacking>
WavefrontBuilder::getCounterPacking() const {
  int64_t bits = workgroupSize < 256 ? 8 : workgroupSize < 65536 ? 16 : 32;
  int64_t perWord = 32 / bits;
  int64_t words = (categories + perWord - 1) / perWord;
  if (!fitsClassifyMemory(workgroupSize * words))
    return std::nullopt;
  return CounterPacking{bits, perWord, words};
}

bool WavefrontBuilder::usesHistogram(
    const std::optional<CounterPacking> &packing) const {
  return fitsClassifyMemory(categories) && (!packing || packing->words > 4);
}

bool WavefrontBuilder::fitsClassifyMemory(int64_t counterWords) const {
  return (counterWords + workgroupSize + 1) * 4 <= 16 * 1024;
}

Value WavefrontBuilder::buildRefill(const KernelArgs &args,
                                    const FrameArraySlot &frame, Value shared,
                                    Value sharedBase, Value lane, Value inRange,
                                    Value oldToken) {
  Value returned = i32(kTerminatedToken);
  Value free =
      arith::AndIOp::create(rewriter, loc, inRange, equal(oldToken, returned));
  Value mine = boolToI32(free);
  memref::StoreOp::create(rewriter, loc, mine, shared, lane);
  buildInclusiveScan(shared, /*words=*/1, lane, workgroupSize);
  Value freeBefore = arith::SubIOp::create(
      rewriter, loc, memref::LoadOp::create(rewriter, loc, shared, lane), mine);
  Value freeTotal = memref::LoadOp::create(
      rewriter, loc, shared, ValueRange{index(workgroupSize - 1)});
  buildIf(equal(lane, index(0)), [&] {
    Value base = buildIfValue(
        compare(arith::CmpIPredicate::ne, freeTotal, i32(0)),
        [&] {
          return memref::AtomicRMWOp::create(
              rewriter, loc, arith::AtomicRMWKind::addi, freeTotal, args.state,
              ValueRange{index(wf::kNextInstance)});
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

void WavefrontBuilder::buildScan() {
  KernelArgs args = beginSchedulingKernel(wf::kScanKernel);
  Value totals = addWorkgroupArray(categories);
  Value lane = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  // Classify counted each category's slots: take the totals and clear the
  // counters for the next round.
  uint32_t countersWord = wf::getCategoryCountersWord(tokens, categories);
  buildLoop(lane, index(categories), index(workgroupSize), [&](Value c) {
    Value counter = add(index(countersWord), c);
    memref::StoreOp::create(rewriter, loc, loadState(args, counter), totals, c);
    memref::StoreOp::create(rewriter, loc, i32(0), args.state, counter);
  });
  gpu::BarrierOp::create(rewriter, loc);
  buildIf(equal(lane, index(0)), [&] { buildRoundDecisions(args, totals); });
}

void WavefrontBuilder::buildRoundDecisions(const KernelArgs &args,
                                           Value totals) {
  // Queue places of the categories.
  uint32_t offsetsWord = wf::getCategoryOffsetsWord(tokens);
  auto offsets = scf::ForOp::create(
      rewriter, loc, index(0), index(categories), index(1), ValueRange{i32(0)},
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
        buildSum(index(token * buckets), index((token + 1) * buckets), index(1),
                 [&](Value c) {
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
    launches = add(launches,
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
  Value notExhausted =
      arith::XOrIOp::create(rewriter, loc, exhausted,
                            arith::ConstantIntOp::create(rewriter, loc, 1, 1));
  Value done =
      arith::AndIOp::create(rewriter, loc, equal(alive, zero), exhausted);
  storeState(args, wf::kDone, boolToI32(done));
  Value everyRound = equal(loadState(args, wf::kRefillPolicy), zero);
  Value belowHalf = lessThanUnsigned(mul(alive, i32(2)), capacity);
  storeState(args, wf::kRefill,
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

void WavefrontBuilder::buildScatter() {
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
          Value rank = memref::LoadOp::create(rewriter, loc, args.ranks, slot);
          Value place = toIndex(add(add(offset, before), rank));
          memref::StoreOp::create(rewriter, loc, toI32(slot), args.queue,
                                  place);
        });
  });
}

void WavefrontBuilder::buildCompaction(bool gather) {
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
    Value slot = gather ? toIndex(memref::LoadOp::create(rewriter, loc,
                                                         args.queue, position))
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
