//===- WavefrontBuilder.cpp - what both wavefront designs build -----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The part of the wavefront's kernels that does not depend on the design:
// the kernels' common arguments, the category of a slot, and the kernel of
// each subroutine, which runs the subroutine on the slots of its queue and,
// in the queue design, appends each slot to the next round's queue there.
//
//===----------------------------------------------------------------------===//

#include "WavefrontBuilder.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::wavefront;

void WavefrontBuilder::buildSchedulingKernels() {
  if (queues) {
    buildQueueInit();
    buildAdvance();
    if (sortsQueues())
      buildSortedScatter();
    return;
  }
  buildInit();
  buildClassify();
  buildScan();
  buildScatter();
  buildCompaction(/*gather=*/true);
  buildCompaction(/*gather=*/false);
}

LogicalResult WavefrontBuilder::buildSubroutineKernel(func::FuncOp subroutine,
                                                      unsigned token) {
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
    Value threads = getGridThreads();
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
    auto ifOp = scf::IfOp::create(rewriter, loc, lessThanUnsigned(first, count),
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
    Value bin = getQueueBin(frame);
    rankInCategory(args, frame, bin, slot);
    body->getTerminator()->setOperands(ValueRange{bin, slot});
    rewriter.setInsertionPointAfter(instance);
    appendBySubgroup(args, bins, instance.getResult(0), instance.getResult(1));
  } else if (queues) {
    rewriter.setInsertionPoint(body->getTerminator());
    Value bin = getQueueBin(frame);
    rankInCategory(args, frame, bin, slot);
    appendToNextQueue(args, bin, slot);
  }
  // A grid-stride thread runs several instances: the driver's loop limit
  // counts all their loops' passes, and the stride loop's.
  if (countIterations)
    addLoopIterationCounter(gridStride ? inQueue->getBlock() : body, args.state,
                            wf::kMostLoopIterations, rewriter);
  return success();
}

Value WavefrontBuilder::getGridThreads() {
  return mul(gpu::GridDimOp::create(rewriter, loc, gpu::Dimension::x),
             index(workgroupSize));
}

KernelArgs WavefrontBuilder::beginKernel(const std::string &name) {
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

Value WavefrontBuilder::getCategory(const FrameArraySlot &frame, Value token) {
  Value category = mul(token, i32(buckets));
  if (!hint)
    return category;
  // Clamped to [0, buckets) at the hint's width (index as i64), so that
  // wide values do not wrap; narrow ones (i1 flags, i8 ids) count as
  // unsigned.
  Value value = frame.loadField(rewriter, loc, *hint);
  if (value.getType().isIndex())
    value =
        arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), value);
  auto type = cast<IntegerType>(value.getType());
  if (type.getWidth() < 32) {
    value = arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), value);
    type = rewriter.getI32Type();
  }
  Value last = arith::ConstantIntOp::create(rewriter, loc, type, buckets - 1);
  Value zero = arith::ConstantIntOp::create(rewriter, loc, type, 0);
  Value bucket = arith::MaxSIOp::create(
      rewriter, loc, arith::MinSIOp::create(rewriter, loc, value, last), zero);
  if (type.getWidth() > 32)
    bucket =
        arith::TruncIOp::create(rewriter, loc, rewriter.getI32Type(), bucket);
  return add(category, bucket);
}
