//===- PrefixPrintf.cpp - say whose line each gpu.printf prints -----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Prepends the instance id and the suspension point to the format of every
// gpu.printf of a coroutine (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-prefix-printf"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROPREFIXPRINTF
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;
using namespace mlir::coro;

/// Prefixes every gpu.printf in `body` with `prefix`, whose "%u" is the
/// instance id `makeId` builds before each print.
static unsigned
prefixPrints(Region &body, StringRef prefix,
             llvm::function_ref<Value(OpBuilder &, Location)> makeId) {
  SmallVector<gpu::PrintfOp> prints;
  body.walk([&](gpu::PrintfOp print) { prints.push_back(print); });
  for (gpu::PrintfOp print : prints) {
    OpBuilder builder(print);
    Location loc = print.getLoc();
    Value id = arith::IndexCastUIOp::create(builder, loc, builder.getI32Type(),
                                            makeId(builder, loc));
    SmallVector<Value> args = {id};
    llvm::append_range(args, print.getArgs());
    std::string format = (prefix + print.getFormat()).str();
    LDBG() << "prefixing " << print << " with '" << prefix << "'";
    gpu::PrintfOp::create(builder, loc, builder.getStringAttr(format), args);
    print.erase();
  }
  return prints.size();
}

namespace {

struct CoroPrefixPrintfPass
    : coro::impl::CoroPrefixPrintfBase<CoroPrefixPrintfPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    llvm::StringMap<SplitOp> splits = getSplitsByCoroutine(module);
    for (FuncOp coroutine : module.getOps<FuncOp>()) {
      SplitOp split = splits.lookup(coroutine.getSymName());
      if (!split || megaKernel) {
        numPrefixed += prefixPrints(
            coroutine.getBody(), "[#%u] ",
            [](OpBuilder &builder, Location loc) -> Value {
              return IdOp::create(builder, loc, builder.getIndexType(),
                                  /*dim=*/nullptr);
            });
        continue;
      }
      FailureOr<SmallVector<func::FuncOp>> subroutines =
          split.lookupSubroutines(symbols);
      if (failed(subroutines))
        return signalPassFailure();
      for (auto [subroutine, name] : llvm::zip(
               *subroutines, split.getNames().getAsValueRange<StringAttr>())) {
        // The frame is each subroutine's first argument.
        Value frame = subroutine.getArgument(0);
        numPrefixed += prefixPrints(
            subroutine.getBody(), ("[#%u @" + name + "] ").str(),
            [&](OpBuilder &builder, Location loc) -> Value {
              return FrameIdOp::create(builder, loc, builder.getIndexType(),
                                       frame, /*dim=*/nullptr);
            });
      }
    }
  }
};

} // namespace
