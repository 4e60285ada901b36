//===- SchedulerKernelBuilder.cpp - building scheduling kernels -----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The arithmetic, control flow and collectives the scheduling kernels of
// the wavefront and persistent-threads schedulers are built from: small
// helpers that name what the kernels compute, so that both read as the
// protocols they implement (GPUKernels.h). The collectives (prefix sums,
// sums and counts, subgroup ballots) are not tied to a scheduler's state
// words; a scheduler passes its arrays and workgroup size.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/GPUKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coro;

Value SchedulerKernelBuilder::i32(int64_t value) {
  return arith::ConstantIntOp::create(rewriter, loc, value, 32);
}

Value SchedulerKernelBuilder::index(int64_t value) {
  return arith::ConstantIndexOp::create(rewriter, loc, value);
}

Value SchedulerKernelBuilder::toIndex(Value value) {
  return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                    value);
}

Value SchedulerKernelBuilder::toI32(Value value) {
  return arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(),
                                    value);
}

Value SchedulerKernelBuilder::add(Value a, Value b) {
  return arith::AddIOp::create(rewriter, loc, a, b);
}

Value SchedulerKernelBuilder::sub(Value a, Value b) {
  return arith::SubIOp::create(rewriter, loc, a, b);
}

Value SchedulerKernelBuilder::mul(Value a, Value b) {
  return arith::MulIOp::create(rewriter, loc, a, b);
}

Value SchedulerKernelBuilder::select(Value condition, Value a, Value b) {
  return arith::SelectOp::create(rewriter, loc, condition, a, b);
}

Value SchedulerKernelBuilder::compare(arith::CmpIPredicate predicate, Value a,
                                      Value b) {
  return arith::CmpIOp::create(rewriter, loc, predicate, a, b);
}

Value SchedulerKernelBuilder::equal(Value a, Value b) {
  return compare(arith::CmpIPredicate::eq, a, b);
}

Value SchedulerKernelBuilder::notEqual(Value a, Value b) {
  return compare(arith::CmpIPredicate::ne, a, b);
}

Value SchedulerKernelBuilder::boolToI32(Value flag) {
  return arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), flag);
}

void SchedulerKernelBuilder::buildIf(Value condition,
                                     function_ref<void()> then) {
  auto ifOp = scf::IfOp::create(rewriter, loc, condition, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  then();
}

Value SchedulerKernelBuilder::buildIfValue(Value condition,
                                           function_ref<Value()> then,
                                           function_ref<Value()> otherwise) {
  auto ifOp = scf::IfOp::create(rewriter, loc, rewriter.getI32Type(), condition,
                                /*addThenBlock=*/true,
                                /*addElseBlock=*/true);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(rewriter, loc, then());
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(rewriter, loc, otherwise());
  return ifOp.getResult(0);
}

void SchedulerKernelBuilder::buildLoop(Value begin, Value end, Value step,
                                       function_ref<void(Value)> body) {
  scf::ForOp::create(rewriter, loc, begin, end, step, ValueRange{},
                     [&](OpBuilder &, Location, Value i, ValueRange) {
                       body(i);
                       scf::YieldOp::create(rewriter, loc);
                     });
}

Value SchedulerKernelBuilder::addWorkgroupArray(gpu::GPUFuncOp kernel,
                                                int64_t size) {
  auto type = MemRefType::get(
      {size}, rewriter.getI32Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                 gpu::AddressSpace::Workgroup));
  return kernel.addWorkgroupAttribution(type, loc);
}

//===----------------------------------------------------------------------===//
// Comparisons and bits
//===----------------------------------------------------------------------===//

Value SchedulerKernelBuilder::lessThanUnsigned(Value a, Value b) {
  return compare(arith::CmpIPredicate::ult, a, b);
}

Value SchedulerKernelBuilder::lessThanSigned(Value a, Value b) {
  return compare(arith::CmpIPredicate::slt, a, b);
}

Value SchedulerKernelBuilder::ceilDiv(Value value, int64_t divisor) {
  auto constant = [&](int64_t c) {
    return value.getType().isIndex() ? index(c) : i32(c);
  };
  return arith::DivUIOp::create(
      rewriter, loc, add(value, constant(divisor - 1)), constant(divisor));
}

Value SchedulerKernelBuilder::countBits(Value word) {
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

//===----------------------------------------------------------------------===//
// Workgroup collectives
//===----------------------------------------------------------------------===//

Value SchedulerKernelBuilder::buildSum(Value begin, Value end, Value step,
                                       function_ref<Value(Value)> term) {
  auto loop = scf::ForOp::create(
      rewriter, loc, begin, end, step, ValueRange{i32(0)},
      [&](OpBuilder &, Location, Value j, ValueRange sum) {
        scf::YieldOp::create(rewriter, loc, add(sum.front(), term(j)));
      });
  return loop.getResult(0);
}

Value SchedulerKernelBuilder::countEqual(Value array, Value end, Value value) {
  return buildSum(index(0), end, index(1), [&](Value j) {
    Value entry = memref::LoadOp::create(rewriter, loc, array, j);
    return boolToI32(equal(entry, value));
  });
}

void SchedulerKernelBuilder::buildInclusiveScan(Value counters, int64_t words,
                                                Value lane,
                                                int64_t workgroupSize) {
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
      Value sum =
          add(memref::LoadOp::create(rewriter, loc, counters, at), left[word]);
      memref::StoreOp::create(rewriter, loc, sum, counters, at);
    }
    gpu::BarrierOp::create(rewriter, loc);
  }
}

//===----------------------------------------------------------------------===//
// Subgroup ballots
//===----------------------------------------------------------------------===//

Value SchedulerKernelBuilder::subgroupAdd(Value value) {
  return gpu::SubgroupReduceOp::create(rewriter, loc, value,
                                       gpu::AllReduceOperation::ADD,
                                       /*uniform=*/true)
      .getResult();
}

SchedulerKernelBuilder::BallotLane SchedulerKernelBuilder::getBallotLane() {
  Value lane = toI32(gpu::LaneIdOp::create(rewriter, loc, nullptr));
  Value zero = i32(0);
  // A shift by 32 or more is undefined: such lanes have no bit.
  Value hasBit = compare(arith::CmpIPredicate::ult, lane, i32(32));
  Value bit =
      select(hasBit, arith::ShLIOp::create(rewriter, loc, i32(1), lane), zero);
  return {lane, zero, hasBit, bit};
}

Value SchedulerKernelBuilder::subgroupBallot(const BallotLane &lane,
                                             Value predicate) {
  // The lanes' bits are distinct: their sum is their union (and MLIR
  // lowers no or-reduction to SPIR-V).
  return subgroupAdd(select(predicate, lane.bit, lane.zero));
}

Value SchedulerKernelBuilder::countLanesBelow(const BallotLane &lane,
                                              Value ballot) {
  return countBits(
      arith::AndIOp::create(rewriter, loc, ballot, sub(lane.bit, i32(1))));
}
