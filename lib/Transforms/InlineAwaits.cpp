//===- InlineAwaits.cpp - inline awaited coroutines into callers ----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   coro.func @trace() {             coro.func @render() {
//     coro.suspend "hit"               coro.suspend "trace_hit"
//     coro.return              ==>     coro.suspend "trace_hit_1"
//   }                                  coro.return
//   coro.func @render() {            }
//     coro.await @trace() : () -> ()
//     coro.await @trace() : () -> ()
//     coro.return
//   }
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Transforms/InlineRegion.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROINLINEAWAITS
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-inline-awaits"

using namespace mlir;
using namespace mlir::coro;

/// Renames the suspension tags and promise fields that `inlined` (ops cloned
/// from `callee`) brought into a caller whose tags are `usedTags`.
static void renameInlinedNames(ArrayRef<Operation *> inlined, FuncOp callee,
                               llvm::StringSet<> &usedTags,
                               RewriterBase &rewriter) {
  for (Operation *root : inlined) {
    root->walk([&](Operation *op) {
      if (auto suspend = dyn_cast<SuspendOp>(op)) {
        std::optional<StringRef> tag = suspend.getTag();
        if (!tag)
          return;
        std::string base = (callee.getSymName() + "_" + *tag).str();
        std::string name = base;
        for (unsigned n = 1; usedTags.contains(name); ++n)
          name = base + "_" + std::to_string(n);
        usedTags.insert(name);
        rewriter.modifyOpInPlace(
            suspend, [&] { suspend.setTagAttr(rewriter.getStringAttr(name)); });
      } else if (auto promise = dyn_cast<PromiseOp>(op)) {
        std::string name =
            (callee.getSymName() + "." + promise.getName()).str();
        rewriter.modifyOpInPlace(promise, [&] { promise.setName(name); });
      }
    });
  }
}

namespace {

/// Inlines the awaits of a coroutine after those of its callees, so that a
/// callee is always inlined in its final form and the names it brings do not
/// depend on the order of the coroutines in the module. The verifier
/// guarantees the await graph is acyclic.
class AwaitInliner {
public:
  explicit AwaitInliner(MLIRContext *context) : rewriter(context) {}

  void inlineAwaits(FuncOp coroutine) {
    if (!done.insert(coroutine).second)
      return;
    SmallVector<std::pair<AwaitOp, FuncOp>> awaits;
    coroutine.walk([&](AwaitOp await) {
      awaits.emplace_back(await, symbolTable.lookupNearestSymbolFrom<FuncOp>(
                                     await, await.getCalleeAttr()));
    });
    if (awaits.empty())
      return;
    for (auto [await, callee] : awaits)
      inlineAwaits(callee);

    llvm::StringSet<> usedTags;
    coroutine.walk([&](SuspendOp suspend) {
      if (std::optional<StringRef> tag = suspend.getTag())
        usedTags.insert(*tag);
    });
    for (auto [await, callee] : awaits) {
      LDBG() << "@" << coroutine.getSymName() << ": inlining the await of @"
             << callee.getSymName();
      SmallVector<Operation *> inlined = inlineBodyAtCall(
          rewriter, await, callee.getBody(), await.getOperands());
      renameInlinedNames(inlined, callee, usedTags, rewriter);
    }
  }

private:
  IRRewriter rewriter;
  SymbolTableCollection symbolTable;
  llvm::SmallPtrSet<Operation *, 8> done;
};

struct CoroInlineAwaitsPass
    : coro::impl::CoroInlineAwaitsBase<CoroInlineAwaitsPass> {
  using Base::Base;

  void runOnOperation() override {
    AwaitInliner inliner(&getContext());
    for (auto coroutine : getOperation().getOps<FuncOp>())
      inliner.inlineAwaits(coroutine);
  }
};

} // namespace
