//===- PersistentBuilder.cpp - the persistent-threads kernel --------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The kernel `<f>__pt` of the persistent-threads scheduler, step by step as
// PersistentToGPU.cpp draws it: the workgroup arrays, the leader's
// decisions, the refill and queue, the frame swap, the run of the chosen
// subroutine on each queued slot, and, with bounded steps, the park area
// that carries a workgroup's slots from one launch to the next.
//
//===----------------------------------------------------------------------===//

#include "PersistentBuilder.h"

#include "CoroGPU/Analysis/FrameWordAccesses.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/DebugLog.h"

#include <set>

#define DEBUG_TYPE "coro-persistent-to-gpu"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::persistent;

void PersistentBuilder::addIterationCounter() {
  Value counter = addLoopIterationCounter(&kernel.getBody().front(), state,
                                          pt::kMostLoopIterations, rewriter);
  if (!parkOnPasses || !counter)
    return;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(stepEnd);
  Value passes = memref::LoadOp::create(rewriter, loc, counter, index(0));
  memref::AtomicRMWOp::create(rewriter, loc, arith::AtomicRMWKind::maxu, passes,
                              control, ValueRange{index(getPassesPeakWord())});
}

LogicalResult PersistentBuilder::build(ArrayRef<func::FuncOp> subroutines) {
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

void PersistentBuilder::createKernelAndMemory() {
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

void PersistentBuilder::buildLeaderDecisions() {
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
      going = both(
          going, lessThanSigned(loadShared(control, index(getPassesPeakWord())),
                                i32(kLoopPassesPerLaunch)));
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
      Value next = memref::LoadOp::create(rewriter, loc, state,
                                          ValueRange{index(pt::kNextInstance)});
      base = buildIfValue(
          lessThanSigned(next, total),
          [&] { return atomicAdd(state, index(pt::kNextInstance), free); },
          [&] { return total; });
    } else {
      base = atomicAdd(state, index(pt::kNextInstance), free);
      total = loadTotal();
    }
    Value left = select(lessThanSigned(base, total), sub(total, base), i32(0));
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

Value PersistentBuilder::getParkBase() {
  Value groups = gpu::GridDimOp::create(rewriter, loc, gpu::Dimension::x);
  int64_t frameWords =
      getFrameArrayWords(layout, batch - sharedSlots, bodyWords);
  int64_t parkWords = pt::getParkWords(batch, getSharedFrameWords());
  return add(mul(groups, index(frameWords)), mul(group, index(parkWords)));
}

Value PersistentBuilder::getParkedWord(Value park, pt::ParkArray array,
                                       Value slot) {
  return add(park, add(index(array * batch), slot));
}

int64_t PersistentBuilder::getSharedFrameWords() {
  return sharedFrames ? getFrameArrayWords(layout, sharedSlots, bodyWords) : 0;
}

void PersistentBuilder::buildResume() {
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
        storeShared(frameOf, slot,
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

void PersistentBuilder::buildPark() {
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

void PersistentBuilder::buildRefillAndQueue() {
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
    buildIf(
        both(notEqual(token, chosen), lessThanSigned(frame, i32(sharedSlots))),
        [&] {
          Value place = atomicAdd(control, index(kSwapOut), i32(1));
          storeShared(swapList, toIndex(sub(i32(batch - 1), place)),
                      toI32(slot));
        });
  });
}

void PersistentBuilder::buildSwap() {
  Value pairs = arith::MinSIOp::create(rewriter, loc, loadControl(kSwapIn),
                                       loadControl(kSwapOut));
  buildIf(notEqual(pairs, i32(0)), [&] {
    buildIf(equal(lane, index(0)),
            [&] { storeControl(kSwapped, add(loadControl(kSwapped), pairs)); });
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
          storeShared(extension, atGlobal, loadShared(sharedFrames, atShared));
        });
        storeShared(sharedFrames, atShared, incoming);
      });
      storeShared(frameOf, in, toI32(outFrame));
      storeShared(frameOf, out, toI32(inFrame));
    });
    gpu::BarrierOp::create(rewriter, loc);
  });
}

LogicalResult PersistentBuilder::buildRun(ArrayRef<func::FuncOp> subroutines) {
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
          onCopy ? static_cast<const FrameStorage &>(*privateFrame) : slotFrame;
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
      buildFallThroughDispatch(rewriter, loc, *privateFrame, tokens, buildCase);
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

PersistentSlotFrame PersistentBuilder::getSlotFrame(Value slot) {
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

FrameArraySlot PersistentBuilder::getSharedFrame(Value frame) {
  return FrameArraySlot(sharedFrames, bodyWords, frame, index(sharedSlots),
                        layout);
}

FrameArraySlot PersistentBuilder::getExtensionFrame(Value frame) {
  int64_t extensionSlots = batch - sharedSlots;
  return FrameArraySlot(
      extension, bodyWords, sub(frame, index(sharedSlots)),
      index(extensionSlots), layout,
      mul(group, index(getFrameArrayWords(layout, extensionSlots, bodyWords))));
}
