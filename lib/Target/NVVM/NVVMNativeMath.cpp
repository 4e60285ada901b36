//===- NVVMNativeMath.cpp - math PTX computes without libdevice -----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/DebugLog.h"

#include "llvm/ADT/StringSwitch.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_CORONVVMNATIVEMATH
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-nvvm-native-math"

using namespace mlir;

namespace {

/// libdevice's functions come in an f32 version named with an `f` suffix and
/// an f64 one without.
constexpr llvm::StringLiteral kLibdevicePrefix = "__nv_";

/// Builds the intrinsic that computes the libdevice function `name` (without
/// prefix and `f` suffix) on `operands`, or returns null if PTX has no
/// instruction for it.
static Operation *buildIntrinsic(OpBuilder &builder, Location loc,
                                 StringRef name, Type type,
                                 ValueRange operands) {
  using Builder = Operation *(*)(OpBuilder &, Location, Type, ValueRange);
  auto make = [](auto op) -> Builder {
    using IntrinsicOp = decltype(op);
    return [](OpBuilder &builder, Location loc, Type type,
              ValueRange operands) -> Operation * {
      return IntrinsicOp::create(builder, loc, TypeRange{type}, operands);
    };
  };
  Builder build = llvm::StringSwitch<Builder>(name)
                      .Case("sqrt", make(LLVM::SqrtOp()))
                      .Case("fabs", make(LLVM::FAbsOp()))
                      .Case("floor", make(LLVM::FFloorOp()))
                      .Case("ceil", make(LLVM::FCeilOp()))
                      .Case("trunc", make(LLVM::FTruncOp()))
                      .Case("rint", make(LLVM::RoundEvenOp()))
                      .Case("fma", make(LLVM::FMAOp()))
                      .Case("copysign", make(LLVM::CopySignOp()))
                      .Default(nullptr);
  // libdevice's sqrtf is the approximate square root unless the module asks
  // for a precise one (__CUDA_PREC_SQRT), which MLIR's NVVM target does not:
  // keep its results and its speed. f64 square roots are sqrt.rn either way.
  if (name == "sqrt" && type.isF32())
    return LLVM::CallIntrinsicOp::create(
        builder, loc, type, builder.getStringAttr("llvm.nvvm.sqrt.approx.f"),
        operands);
  return build ? build(builder, loc, type, operands) : nullptr;
}

struct CoroNVVMNativeMathPass
    : coro::impl::CoroNVVMNativeMathBase<CoroNVVMNativeMathPass> {
  using Base::Base;

  void runOnOperation() override {
    bool missing = false;
    getOperation()->walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || !callee->starts_with(kLibdevicePrefix))
        return;
      // Functions of one f32 or f64 result (not sincos, which returns
      // through pointers).
      StringRef name = callee->drop_front(kLibdevicePrefix.size());
      Type type =
          call.getNumResults() == 1 ? call.getResult().getType() : Type();
      if (type && (type.isF64() || (type.isF32() && name.consume_back("f")))) {
        OpBuilder builder(call);
        if (Operation *intrinsic = buildIntrinsic(
                builder, call.getLoc(), name, type, call.getArgOperands())) {
          LDBG() << *callee << " -> " << intrinsic->getName();
          call.getResult().replaceAllUsesWith(intrinsic->getResult(0));
          call.erase();
          return;
        }
      }
      if (libdevice)
        return;
      call.emitError() << "math function '" << *callee
                       << "' is in libdevice, and no CUDA toolkit with "
                          "nvvm/libdevice/libdevice.10.bc was found (set "
                          "CUDA_HOME to one)";
      missing = true;
    });
    if (missing)
      return signalPassFailure();
    // The declarations of the replaced functions.
    for (auto function :
         llvm::make_early_inc_range(getOperation().getOps<LLVM::LLVMFuncOp>()))
      if (function.isExternal() &&
          function.getName().starts_with(kLibdevicePrefix) &&
          SymbolTable::symbolKnownUseEmpty(function, getOperation()))
        function.erase();
  }
};

} // namespace
