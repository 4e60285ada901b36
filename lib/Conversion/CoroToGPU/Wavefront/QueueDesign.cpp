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
// per token, and the free ring, as WavefrontABI.h lays them out. With hint
// buckets (sort-by), the appends also number each slot in its category,
// and a scatter after advance sorts the round's queues into a third
// region.
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

/// One atomic per slot on its category's counter: the ballots of
/// appendBySubgroup are per queue, and a subgroup's lanes may spread over
/// as many categories as there are buckets.
void WavefrontBuilder::rankInCategory(const KernelArgs &args,
                                      const FrameArraySlot &frame, Value bin,
                                      Value slot) {
  if (!sortsQueues())
    return;
  uint32_t counters = wf::getCategoryCountersWord(tokens, categories);
  buildIf(lessThanUnsigned(bin, i32(tokens)), [&] {
    Value category = toIndex(getCategory(frame, bin));
    Value rank = memref::AtomicRMWOp::create(
        rewriter, loc, arith::AtomicRMWKind::addi, i32(1), args.state,
        ValueRange{add(index(counters), category)});
    memref::StoreOp::create(rewriter, loc, rank, args.ranks, slot);
  });
}

void WavefrontBuilder::placeCategories(const KernelArgs &args, Value capacity,
                                       MutableArrayRef<Value> starts) {
  uint32_t offsets = wf::getCategoryOffsetsWord(tokens);
  uint32_t counters = wf::getCategoryCountersWord(tokens, categories);
  // The entry token's instances come from the free ring, unsorted.
  // getSortedQueuesStart (WavefrontABI.h).
  Value sortedStart = mul(capacity, i32(2 * tokens + 2));
  auto loop =
      scf::ForOp::create(rewriter, loc, index(buckets), index(categories),
                         index(1), ValueRange{sortedStart});
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    Value category = loop.getInductionVar();
    Value place = loop.getRegionIterArgs().front();
    Value counter = add(index(counters), category);
    Value count = loadState(args, counter);
    memref::StoreOp::create(rewriter, loc, place, args.state,
                            ValueRange{add(index(offsets), category)});
    memref::StoreOp::create(rewriter, loc, i32(0), args.state,
                            ValueRange{counter});
    scf::YieldOp::create(rewriter, loc, add(place, count));
  }
  for (unsigned token = 0; token < tokens; ++token)
    if (token != kEntryToken)
      starts[token] = loadState(args, offsets + token * buckets);
}

WavefrontBuilder::QueuedInstance
WavefrontBuilder::locateInQueues(Value position,
                                 function_ref<Value(unsigned)> count,
                                 function_ref<Value(unsigned)> start) {
  QueuedInstance found{index(0), i32(0), index(0)};
  for (unsigned token = 0; token < tokens; ++token) {
    if (token == kEntryToken)
      continue;
    Value after = add(found.total, count(token));
    Value inQueue = arith::AndIOp::create(
        rewriter, loc,
        compare(arith::CmpIPredicate::uge, position, found.total),
        lessThanUnsigned(position, after));
    Value first = start(token);
    found.place =
        select(inQueue, add(first, sub(position, found.total)), found.place);
    found.token = select(inQueue, i32(token), found.token);
    found.total = after;
  }
  return found;
}

void WavefrontBuilder::buildSortedScatter() {
  KernelArgs args = beginSchedulingKernel(wf::kScatterKernel);
  Value position = gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value capacity = getCapacity(args);
  Value parity = toIndex(loadState(args, wf::kQueueParity));
  // The position-th instance appended last round (in a tail round, the
  // counts are the tail's).
  QueuedInstance appended = locateInQueues(
      position,
      [&](unsigned token) {
        Value queued =
            toIndex(loadState(args, wf::getTokenWord(token, wf::kTokenCount)));
        if (tail)
          queued =
              add(queued, toIndex(loadState(
                              args, wf::getTokenWord(token, wf::kTokenTail))));
        return queued;
      },
      [&](unsigned token) {
        return getQueueStart(parity, index(token), capacity);
      });
  Value place = appended.place, token = appended.token;
  buildIf(lessThanUnsigned(position, appended.total), [&] {
    Value slot =
        toIndex(memref::LoadOp::create(rewriter, loc, args.queue, place));
    FrameArraySlot frame = getFrame(args, slot);
    Value category = toIndex(getCategory(frame, token));
    Value offset = loadState(
        args, add(index(wf::getCategoryOffsetsWord(tokens)), category));
    Value rank = memref::LoadOp::create(rewriter, loc, args.ranks, slot);
    memref::StoreOp::create(rewriter, loc, toI32(slot), args.queue,
                            toIndex(add(offset, rank)));
  });
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
    // The round's queues: what the last round appended, and new instances
    // on free slots, from the head of the ring.
    SmallVector<Value> counts(tokens), starts(tokens);
    for (unsigned token = 0; token < tokens; ++token) {
      if (token == kEntryToken)
        continue;
      uint32_t next = wf::getTokenWord(token, wf::kTokenNext);
      counts[token] = loadState(args, next);
      storeState(args, next, i32(0));
      starts[token] = getQueueStart(parity, i32(token), capacity);
    }
    if (sortsQueues()) {
      placeCategories(args, capacity, starts);
      Value appended = i32(0);
      for (unsigned token = 0; token < tokens; ++token)
        if (token != kEntryToken)
          appended = add(appended, counts[token]);
      storeGroups(args, wf::kScatterGroups, ceilDiv(appended, workgroupSize));
    }
    Value head = loadState(args, wf::kFreeHead);
    Value free = arith::SubIOp::create(rewriter, loc,
                                       loadState(args, wf::kFreeTail), head);
    Value started = loadState(args, wf::kNextInstance);
    Value total = loadState(args, wf::kTotalInstances);
    Value remaining =
        select(lessThanUnsigned(started, total),
               arith::SubIOp::create(rewriter, loc, total, started), i32(0));
    Value fresh = arith::MinUIOp::create(rewriter, loc, free, remaining);
    counts[kEntryToken] = fresh;
    starts[kEntryToken] = head;
    Value alive = i32(0);
    for (Value count : counts)
      alive = add(alive, count);
    // A tail round: nothing left to start and few alive. Its kernel runs
    // the queues one after another (their counts in kTokenTail), and the
    // subroutine kernels get none.
    Value tailRound;
    if (tail) {
      Value fewAlive =
          lessThanUnsigned(mul(alive, i32(100)),
                           mul(loadState(args, wf::kTailPercent), capacity));
      tailRound =
          arith::AndIOp::create(rewriter, loc, equal(remaining, i32(0)),
                                arith::AndIOp::create(rewriter, loc, fewAlive,
                                                      notEqual(alive, i32(0))));
      storeState(args, wf::kTailCount, select(tailRound, alive, i32(0)));
      storeGroups(args, wf::kTailGroups,
                  select(tailRound, ceilDiv(alive, workgroupSize), i32(0)));
    }
    Value launches = tail ? boolToI32(tailRound) : i32(0);
    for (unsigned token = 0; token < tokens; ++token) {
      Value count =
          tail ? select(tailRound, i32(0), counts[token]) : counts[token];
      storeState(args, wf::getTokenWord(token, wf::kTokenCount), count);
      storeState(args, wf::getTokenWord(token, wf::kTokenStart), starts[token]);
      storeGroups(args, wf::getTokenWord(token, wf::kTokenGroups),
                  ceilDiv(count, workgroupSize));
      // The tail kernel counts the subroutines it runs itself.
      addToState(args, wf::getTokenWord(token, wf::kTokenTotal), count);
      if (tail)
        storeState(args, wf::getTokenWord(token, wf::kTokenTail),
                   select(tailRound, counts[token], i32(0)));
      launches = add(launches, boolToI32(notEqual(count, i32(0))));
    }
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

/// A tail launch runs each instance for at most this many subroutines, so
/// that a coroutine that never returns cannot hold the device in one launch
/// (the host's round limit stops it); one that needs more steps goes on in
/// the next round.
static constexpr int64_t kTailStepsPerLaunch = 1024;

LogicalResult
WavefrontBuilder::buildTailKernel(ArrayRef<func::FuncOp> subroutines) {
  KernelArgs args = beginSchedulingKernel(wf::kTailKernel);
  // Where the driver limits loop passes, a thread stops stepping once its
  // passes reach the budget; its instance goes on in a later round.
  std::optional<LoopPassBudget> budget;
  if (countIterations)
    budget = LoopPassBudget::create(rewriter, loc);
  Value first = gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value count = toIndex(loadState(args, wf::kTailCount));
  // One thread per instance, or (grid-stride, launched directly every
  // round) a grid of any size.
  Operation *scope;
  Value position;
  if (gridStride) {
    auto loop =
        scf::ForOp::create(rewriter, loc, first, count, getGridThreads());
    scope = loop;
    position = loop.getInductionVar();
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  } else {
    auto ifOp = scf::IfOp::create(rewriter, loc, lessThanUnsigned(first, count),
                                  /*withElse=*/false);
    scope = ifOp;
    position = first;
    rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  Block *body = rewriter.getInsertionBlock();
  // A tail round starts no instance: its queues are the resumed tokens'.
  Value place =
      locateInQueues(
          position,
          [&](unsigned token) {
            return toIndex(
                loadState(args, wf::getTokenWord(token, wf::kTokenTail)));
          },
          [&](unsigned token) {
            return toIndex(
                loadState(args, wf::getTokenWord(token, wf::kTokenStart)));
          })
          .place;
  Value slot =
      toIndex(memref::LoadOp::create(rewriter, loc, args.queue, place));
  FrameArraySlot frame = getFrame(args, slot);
  Value id = toIndex(frame.loadWord(rewriter, loc, kCoroIdWord));
  InstancePosition instance =
      delinearizeInstanceId(rewriter, loc, id, args.nx, args.ny);
  // The state machine from the token the frame holds. Each subroutine run
  // counts in its statistics, as the subroutine kernels' launches do. Once
  // the budget is spent, a grid-stride thread only hands its further
  // instances on, entering no loop for them.
  Operation *steps = nullptr;
  if (budget) {
    auto ifBudget =
        scf::IfOp::create(rewriter, loc, budget->isLeft(rewriter, loc),
                          /*withElse=*/false);
    steps = ifBudget;
    rewriter.setInsertionPoint(ifBudget.thenBlock()->getTerminator());
  }
  scf::WhileOp loop = buildStateMachineLoop(
      rewriter, loc, frame, tokens,
      [&](OpBuilder &builder, Location at, unsigned token) {
        memref::AtomicRMWOp::create(
            builder, at, arith::AtomicRMWKind::addi,
            arith::ConstantIntOp::create(builder, at, 1, 32), args.state,
            ValueRange{arith::ConstantIndexOp::create(
                builder, at, wf::getTokenWord(token, wf::kTokenTotal))});
        cloneSubroutineBody(builder, subroutines[token], args.coroutineArgs);
      },
      kTailStepsPerLaunch, /*fallThrough=*/false, budget ? &*budget : nullptr);
  for (func::FuncOp subroutine : subroutines)
    if (failed(lowerFrameAccesses(subroutine.getArgument(0), split, frame,
                                  instance, scope)))
      return failure();
  // Returned, or stopped by the step bound or the budget: to the free ring
  // or the queue of its token, as a subroutine kernel leaves it.
  rewriter.setInsertionPointAfter(steps ? steps : loop.getOperation());
  Value bin = getQueueBin(frame);
  rankInCategory(args, frame, bin, slot);
  appendToNextQueue(args, bin, slot);
  if (countIterations) {
    Value counter =
        addLoopIterationCounter(gridStride ? scope->getBlock() : body,
                                args.state, wf::kMostLoopIterations, rewriter);
    if (counter)
      budget->noteAtStepEnds(rewriter, loc, loop, counter);
  }
  return success();
}
