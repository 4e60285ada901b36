//===- NVVMUnpackF64.cpp - the words of an f64 through mov.b64 ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Frame fields of 64 bits are stored as two 32-bit words: the bits of an f64
// (`llvm.bitcast` to i64), truncated and shifted. The NVPTX backend folds
// the truncation into the store, `st.global.b32 [a], %rd` with the f64's
// register, and ptxas (CUDA 13.0, sm_90) miscompiles that store when the
// register comes from `cvt.f64.f32`: it converts the value to an unsigned
// integer (`F2I.U32.F64.TRUNC`) instead of storing its low bits, so that an
// f64 widened from an f32 and kept across a suspension loses its low word
// under the wavefront and persistent-threads schedulers. Taking the words
// apart with `llvm.nvvm.d2i.lo` / `d2i.hi`, which become
// `mov.b64 {%r1, %r2}, %rd` (what CUDA's own __double2loint emits), leaves
// ptxas 32-bit registers to store.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_CORONVVMUNPACKF64
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-nvvm-unpack-f64"

using namespace mlir;

namespace {

struct CoroNVVMUnpackF64Pass
    : coro::impl::CoroNVVMUnpackF64Base<CoroNVVMUnpackF64Pass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<LLVM::BitcastOp> bitcasts;
    getOperation().walk([&](LLVM::BitcastOp bitcast) {
      if (bitcast.getArg().getType().isF64() && bitcast.getType().isInteger(64))
        bitcasts.push_back(bitcast);
    });
    OpBuilder builder(&getContext());
    Type i32 = builder.getI32Type();
    Type i64 = builder.getI64Type();
    for (LLVM::BitcastOp bitcast : bitcasts) {
      LDBG() << "unpacking " << bitcast;
      Location loc = bitcast.getLoc();
      builder.setInsertionPoint(bitcast);
      auto word = [&](StringRef intrinsic) -> Value {
        Value half = LLVM::CallIntrinsicOp::create(
                         builder, loc, i32, builder.getStringAttr(intrinsic),
                         ValueRange{bitcast.getArg()})
                         .getResult(0);
        return LLVM::ZExtOp::create(builder, loc, i64, half);
      };
      Value low = word("llvm.nvvm.d2i.lo");
      Value high = word("llvm.nvvm.d2i.hi");
      Value shift = LLVM::ConstantOp::create(builder, loc, i64,
                                             builder.getI64IntegerAttr(32));
      Value shifted = LLVM::ShlOp::create(builder, loc, high, shift);
      // The optimizer folds the truncations and shifts of the frame store
      // through this `or` to the two words.
      Value bits = LLVM::OrOp::create(builder, loc, shifted, low);
      bitcast.replaceAllUsesWith(bits);
      bitcast.erase();
      ++numBitcastsUnpacked;
    }
  }
};

} // namespace
