//===- InlineCallables.cpp - inline func.call into coroutines -------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Replaces each `func.call` in a coroutine by the callee's body. The call
// graph below a coroutine is checked for cycles first; then calls are inlined
// until none is left (newly cloned bodies may bring new calls, the acyclic
// call graph bounds the work). Multi-block callees are wrapped in an
// `scf.execute_region` so that a call nested in an `scf` region stays valid.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Transforms/InlineRegion.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROINLINECALLABLES
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-inline-callables"

using namespace mlir;
using namespace mlir::coro;

/// The callee of `call` when the pass should inline it: a `func.func` with a
/// body and without `no_inline`.
static func::FuncOp getInlinableCallee(func::CallOp call,
                                       SymbolTableCollection &symbolTable) {
  auto callee = symbolTable.lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || callee.isExternal() || callee.getNoInline())
    return nullptr;
  return callee;
}

namespace {

/// Depth-first search of the callables reachable from a coroutine, reporting
/// the first cycle found with its call chain.
class RecursionChecker {
public:
  explicit RecursionChecker(SymbolTableCollection &symbolTable)
      : symbolTable(symbolTable) {}

  /// Fails, with a diagnostic on the call that starts it, if a call chain
  /// from `root` reaches a callable twice.
  LogicalResult check(Operation *root) {
    WalkResult result = root->walk([&](func::CallOp call) {
      func::FuncOp callee = getInlinableCallee(call, symbolTable);
      if (!callee || succeeded(visit(callee)))
        return WalkResult::advance();
      InFlightDiagnostic diag = call.emitOpError("calls the recursive chain ");
      for (auto [index, function] : llvm::enumerate(cycle))
        diag << (index ? " -> @" : "@") << function.getSymName();
      diag << "; recursive callables cannot be inlined into a coroutine";
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }

private:
  enum class State { InProgress, Done };

  LogicalResult visit(func::FuncOp function) {
    auto [it, inserted] = states.try_emplace(function, State::InProgress);
    if (!inserted) {
      if (it->second == State::Done)
        return success();
      // Close the cycle: the stack from `function` to the top, then back.
      auto start = llvm::find(stack, function);
      cycle.assign(start, stack.end());
      cycle.push_back(function);
      return failure();
    }
    stack.push_back(function);
    WalkResult result = function.walk([&](func::CallOp call) {
      func::FuncOp callee = getInlinableCallee(call, symbolTable);
      if (callee && failed(visit(callee)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
    stack.pop_back();
    states[function] = State::Done;
    return success();
  }

  SymbolTableCollection &symbolTable;
  llvm::DenseMap<Operation *, State> states;
  SmallVector<func::FuncOp> stack;
  SmallVector<func::FuncOp> cycle;
};

} // namespace

namespace {

struct CoroInlineCallablesPass
    : coro::impl::CoroInlineCallablesBase<CoroInlineCallablesPass> {
  using Base::Base;

  void runOnOperation() override {
    SymbolTableCollection symbolTable;
    IRRewriter rewriter(&getContext());
    // The coroutines, and the subroutines of splits written by hand.
    SmallVector<Operation *> roots;
    for (auto coroutine : getOperation().getOps<FuncOp>())
      roots.push_back(coroutine);
    for (auto split : getOperation().getOps<SplitOp>())
      for (auto symbol : split.getSubroutines().getAsRange<FlatSymbolRefAttr>())
        if (Operation *subroutine =
                symbolTable.lookupNearestSymbolFrom(getOperation(), symbol))
          roots.push_back(subroutine);
    for (Operation *root : roots) {
      if (failed(RecursionChecker(symbolTable).check(root)))
        return signalPassFailure();
      // Each round inlines the calls present at its start; cloned bodies may
      // bring the next level of calls.
      SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
      do {
        calls.clear();
        root->walk([&](func::CallOp call) {
          if (func::FuncOp callee = getInlinableCallee(call, symbolTable))
            calls.emplace_back(call, callee);
        });
        for (auto [call, callee] : calls)
          inlineBodyAtCall(rewriter, call, callee.getBody(),
                           call.getOperands());
      } while (!calls.empty());
    }
  }
};

} // namespace
