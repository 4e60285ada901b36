//===- QueueDesign.cpp - the wavefront's queue design ---------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The queue design (the default): the subroutine kernels append each slot
// they ran to the queue of its next token for the next round (or to the
// free ring once its instance returned), so that a round needs one
// scheduling kernel, advance, which swaps the queues and starts new
// instances on free slots. The queue buffer holds two halves of one queue
// per token, and the free ring, as WavefrontABI.h lays them out.
//
//===----------------------------------------------------------------------===//

#include "WavefrontBuilder.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::wavefront;

Value WavefrontBuilder::getFreeRingStart(const KernelArgs &args) {
  return mul(getCapacity(args), index(2 * tokens));
}

Value WavefrontBuilder::getFreeRingPlace(const KernelArgs &args,
                                         Value position) {
  return add(getFreeRingStart(args),
             arith::RemUIOp::create(rewriter, loc, position,
                                    mul(getCapacity(args), index(2))));
}

Value WavefrontBuilder::getQueueStart(Value half, Value token, Value capacity) {
  Value tokenCount = half.getType().isIndex() ? index(tokens) : i32(tokens);
  return mul(add(mul(half, tokenCount), token), capacity);
}

Value WavefrontBuilder::getQueueBin(const FrameArraySlot &frame) {
  Value token = frame.loadToken(rewriter, loc);
  return select(equal(token, i32(kTerminatedToken)), i32(tokens), token);
}

SmallVector<int64_t> WavefrontBuilder::getReachableBins(func::FuncOp subroutine,
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

void WavefrontBuilder::storeAppended(const KernelArgs &args, Value bin,
                                     Value place, Value slot) {
  Value binIndex = toIndex(bin);
  Value returned = equal(bin, i32(tokens));
  Value next = arith::SubIOp::create(
      rewriter, loc, index(1), toIndex(loadState(args, wf::kQueueParity)));
  Value queued = add(getQueueStart(next, binIndex, getCapacity(args)), place);
  Value freed = getFreeRingPlace(args, place);
  memref::StoreOp::create(rewriter, loc, toI32(slot), args.queue,
                          select(returned, freed, queued));
}

Value WavefrontBuilder::getAppendCounter(Value bin) {
  Value returned = equal(bin, i32(tokens));
  return select(returned, index(wf::kFreeTail),
                add(index(wf::kFirstTokenWord + wf::kTokenNext),
                    mul(toIndex(bin), index(wf::kWordsPerToken))));
}

/// Aggregating the appends per workgroup (ranks from workgroup-memory
/// atomics, one global atomic per queue) needed two barriers after the
/// subroutine, which made the BVH path tracer's intersect kernel slower on
/// lavapipe (its invocations run to each barrier one after another;
/// benchmarks/RESULTS.md, "Design measurements"); appendBySubgroup needs
/// none.
void WavefrontBuilder::appendToNextQueue(const KernelArgs &args, Value bin,
                                         Value slot) {
  Value place = toIndex(memref::AtomicRMWOp::create(
      rewriter, loc, arith::AtomicRMWKind::addi, i32(1), args.state,
      ValueRange{getAppendCounter(bin)}));
  storeAppended(args, bin, place, slot);
}

/// In code that all lanes of the subgroup reach (lanes without an instance
/// have the bin getNoQueueBin): for each bin, the ballot of its lanes; a
/// lane's place among them is the number of its lanes below it, the lowest
/// lane adds them all to the bin's counter with one atomic, and an
/// add-reduction gives the others its result. Only the `bins` the subroutine
/// reaches get ballots. Ballots have 32 bits: lanes past the 32nd (subgroups
/// of 64) append alone.
void WavefrontBuilder::appendBySubgroup(const KernelArgs &args,
                                        ArrayRef<int64_t> bins, Value bin,
                                        Value slot) {
  BallotLane lane = getBallotLane();
  Value zero = lane.zero;
  Value ballot = zero;
  SmallVector<Value> inBins;
  for (int64_t b : bins) {
    Value inBin = equal(bin, i32(b));
    inBins.push_back(inBin);
    Value binBallot = subgroupBallot(lane, inBin);
    ballot = select(inBin, binBallot, ballot);
  }
  // Lanes in no ballot (with no bit, or whose bin has none: none should)
  // append on their own: ballot 0 makes them lead, with a count of 1, and
  // they hand their place to no other lane.
  assert(!inBins.empty() && "a subroutine reaches its own bin or a target");
  Value inAnyBin = inBins.front();
  for (Value inBin : ArrayRef<Value>(inBins).drop_front())
    inAnyBin = arith::OrIOp::create(rewriter, loc, inAnyBin, inBin);
  Value inBallot = arith::AndIOp::create(rewriter, loc, lane.hasBit, inAnyBin);
  ballot = select(inBallot, ballot, zero);
  Value rank = countLanesBelow(lane, ballot);
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
    Value binBase = subgroupAdd(select(leader, first, zero));
    ballotBase = select(inBin, binBase, ballotBase);
  }
  Value base = select(inBallot, ballotBase, first);
  buildIf(appends,
          [&] { storeAppended(args, bin, toIndex(add(base, rank)), slot); });
}

void WavefrontBuilder::buildQueueInit() {
  KernelArgs args = beginSchedulingKernel(wf::kInitKernel);
  Value slot = gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::x);
  buildIf(lessThanUnsigned(slot, getCapacity(args)), [&] {
    memref::StoreOp::create(rewriter, loc, toI32(slot), args.queue,
                            add(getFreeRingStart(args), slot));
  });
}

void WavefrontBuilder::buildAdvance() {
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
    storeState(args, wf::kFreeTail,
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
