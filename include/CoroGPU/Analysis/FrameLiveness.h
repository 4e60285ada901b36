//===- FrameLiveness.h - field-level liveness of a split frame --*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The frame analyses of paper App. C.3.2, on the fields of a split
// coroutine (one field per scalar, vector lane and local-array element):
//
//   intra-scope, per subroutine s:
//     E_s        fields s reads before writing them (external),
//     K_{s->t}   fields s writes on every path to its exit towards t
//                (killed),
//     W_{s->t}   fields s may write on a path to that exit,
//     T_s        fields s touches at all;
//   inter-scope, over the transition graph, to a fixed point:
//     L_s        fields live when s starts:
//                L_s = E_s u U_{t in succ(s)} (L_t \ K_{s->t}),
//                with L_{-1} = the promise fields (read after termination);
//   and from those, what the subroutines do with the frame:
//     I_s        fields loaded on resumption       = E_s,
//     O_{s->t}   fields stored on suspension s->t  = W_{s->t} n L_t.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_ANALYSIS_FRAMELIVENESS_H
#define COROGPU_ANALYSIS_FRAMELIVENESS_H

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace coro {

class FrameLiveness {
public:
  using FieldSet = llvm::BitVector;

  /// Analyzes `split`; `subroutines[t]` is the function of token t.
  FrameLiveness(SplitOp split, ArrayRef<func::FuncOp> subroutines);

  unsigned getNumFields() const { return numFields; }
  unsigned getNumSubroutines() const { return nodes.size(); }
  /// Tokens reached from `token` (-1 for termination), in graph order.
  ArrayRef<int32_t> getSuccessors(int32_t token) const {
    return nodes[token].successors;
  }

  const FieldSet &getExternal(int32_t token) const {
    return nodes[token].external;
  }
  const FieldSet &getTouched(int32_t token) const {
    return nodes[token].touched;
  }
  FieldSet getKilled(int32_t from, int32_t to) const;
  FieldSet getWritten(int32_t from, int32_t to) const;
  /// L_t; for t = -1, the promise fields.
  const FieldSet &getLiveIn(int32_t token) const;
  FieldSet getLoadOnResume(int32_t token) const { return getExternal(token); }
  FieldSet getStoreOnSuspend(int32_t from, int32_t to) const;

  /// Whether every load of subroutine `token` runs before any of its
  /// stores, so that a field it loads may share storage with one it stores.
  bool loadsPrecedeStores(int32_t token) const {
    return nodes[token].storedBeforeLoad.empty();
  }
  /// The fields subroutine `token` may store before it loads `field`
  /// (which then may not share storage with them).
  FieldSet getStoredBeforeLoad(int32_t token, unsigned field) const;

  /// The token of the `coro.frame.set_target` that follows `op` in its
  /// block, if any: control then leaves the subroutine there.
  static std::optional<int32_t> getExitAfter(Operation *op);

  /// The exits (tokens) a frame store may reach in its subroutine: the
  /// `coro.frame.set_target` that follows it in its block, or all of them.
  static SmallVector<int32_t> getReachedExits(FrameStoreOp store);

private:
  struct Node {
    SmallVector<int32_t> successors;
    FieldSet external, touched, liveIn;
    llvm::DenseMap<int32_t, FieldSet> killed, written;
    llvm::DenseMap<unsigned, FieldSet> storedBeforeLoad;
  };

  void analyzeSubroutine(int32_t token, func::FuncOp subroutine);
  void solve();

  unsigned numFields;
  FieldSet promises;
  std::vector<Node> nodes;
};

} // namespace coro
} // namespace mlir

#endif // COROGPU_ANALYSIS_FRAMELIVENESS_H
