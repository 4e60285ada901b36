//===- FrameLiveness.cpp - field-level liveness of a split frame ----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Analysis/FrameLiveness.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-frame-liveness"

using namespace mlir;
using namespace mlir::coro;

/// Whether some op around `block`, inside `function`, is a loop.
static bool isInLoop(Block *block, Operation *function) {
  for (Operation *op = block->getParentOp(); op && op != function;
       op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op))
      return true;
  return false;
}

/// Whether `a` may run before `b` in one run of `function`. In structured
/// control flow: within their deepest common block, `a`'s op comes first,
/// or a loop around that block repeats both; two regions of one `scf.if` or
/// `scf.index_switch` exclude each other.
static bool mayRunBefore(Operation *a, Operation *b, Operation *function) {
  llvm::DenseMap<Block *, Operation *> enclosingB;
  for (Operation *op = b; op && op != function; op = op->getParentOp())
    enclosingB[op->getBlock()] = op;
  for (Operation *x = a; x && x != function; x = x->getParentOp()) {
    auto it = enclosingB.find(x->getBlock());
    if (it == enclosingB.end())
      continue;
    Operation *y = it->second;
    if (isInLoop(x->getBlock(), function))
      return true;
    if (x != y)
      return x->isBeforeInBlock(y);
    return !isa<scf::IfOp, scf::IndexSwitchOp>(x);
  }
  return true; // Different blocks of one region: anything goes.
}

FrameLiveness::FrameLiveness(SplitOp split, ArrayRef<func::FuncOp> subroutines)
    : numFields(split.getFields().size()), promises(numFields),
      nodes(subroutines.size()) {
  for (auto [index, field] : llvm::enumerate(split.getFrameFields()))
    if (field.getPromise())
      promises.set(index);
  for (auto [token, subroutine] : llvm::enumerate(subroutines))
    analyzeSubroutine(token, subroutine);
  solve();
}

std::optional<int32_t> FrameLiveness::getExitAfter(Operation *op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
    if (auto exit = dyn_cast<FrameSetTargetOp>(next))
      return static_cast<int32_t>(exit.getToken());
  return std::nullopt;
}

SmallVector<int32_t> FrameLiveness::getReachedExits(FrameStoreOp store) {
  if (std::optional<int32_t> exit = getExitAfter(store))
    return {*exit};
  SmallVector<int32_t> exits;
  store->getParentOfType<func::FuncOp>().walk([&](FrameSetTargetOp exit) {
    if (!llvm::is_contained(exits, exit.getToken()))
      exits.push_back(exit.getToken());
  });
  return exits;
}

void FrameLiveness::analyzeSubroutine(int32_t token, func::FuncOp subroutine) {
  Node &node = nodes[token];
  node.external = node.touched = node.liveIn = FieldSet(numFields);
  SmallVector<FrameLoadOp> loads;
  SmallVector<FrameStoreOp> stores;
  SmallVector<FrameSetTargetOp> exits;
  subroutine.walk([&](Operation *op) {
    if (auto load = dyn_cast<FrameLoadOp>(op))
      loads.push_back(load);
    else if (auto store = dyn_cast<FrameStoreOp>(op))
      stores.push_back(store);
    else if (auto exit = dyn_cast<FrameSetTargetOp>(op))
      exits.push_back(exit);
  });
  for (FrameSetTargetOp exit : exits)
    if (!llvm::is_contained(node.successors, exit.getToken()))
      node.successors.push_back(exit.getToken());
  for (int32_t successor : node.successors)
    node.killed[successor] = node.written[successor] = FieldSet(numFields);

  DominanceInfo dominance(subroutine);
  // E: loads no store of the same field dominates.
  for (FrameLoadOp load : loads) {
    node.touched.set(load.getSlot());
    if (llvm::none_of(stores, [&](FrameStoreOp store) {
          return store.getSlot() == load.getSlot() &&
                 dominance.properlyDominates(store.getOperation(),
                                             load.getOperation());
        }))
      node.external.set(load.getSlot());
  }
  // W: stores that may reach the exit.
  for (FrameStoreOp store : stores) {
    node.touched.set(store.getSlot());
    for (int32_t exit : getReachedExits(store))
      node.written[exit].set(store.getSlot());
  }
  // K: fields stored before every exit towards the successor.
  llvm::DenseMap<int32_t, bool> seen;
  for (FrameSetTargetOp exit : exits) {
    FieldSet killedHere(numFields);
    for (FrameStoreOp store : stores)
      if (dominance.properlyDominates(store.getOperation(),
                                      exit.getOperation()))
        killedHere.set(store.getSlot());
    FieldSet &killed = node.killed[exit.getToken()];
    if (seen[exit.getToken()])
      killed &= killedHere;
    else
      killed = killedHere;
    seen[exit.getToken()] = true;
  }
  // For each loaded field, the fields stored where the load may still
  // follow: those may not share its storage.
  for (FrameLoadOp load : loads)
    for (FrameStoreOp store : stores)
      if (mayRunBefore(store, load, subroutine)) {
        node.storedBeforeLoad.try_emplace(load.getSlot(), numFields)
            .first->second.set(store.getSlot());
      }
}

FrameLiveness::FieldSet
FrameLiveness::getStoredBeforeLoad(int32_t token, unsigned field) const {
  auto it = nodes[token].storedBeforeLoad.find(field);
  return it == nodes[token].storedBeforeLoad.end() ? FieldSet(numFields)
                                                   : it->second;
}

const FrameLiveness::FieldSet &FrameLiveness::getLiveIn(int32_t token) const {
  return token == kTerminatedToken ? promises : nodes[token].liveIn;
}

void FrameLiveness::solve() {
  bool changed = true;
  while (changed) {
    changed = false;
    // Backwards over the tokens: state flows from later subroutines to
    // earlier ones.
    for (int32_t token = nodes.size() - 1; token >= 0; --token) {
      Node &node = nodes[token];
      FieldSet live = node.external;
      for (int32_t successor : node.successors) {
        FieldSet through = getLiveIn(successor);
        through.reset(node.killed[successor]);
        live |= through;
      }
      if (live != node.liveIn) {
        LDBG() << "subroutine " << token << ": " << live.count()
               << " fields live in";
        node.liveIn = std::move(live);
        changed = true;
      }
    }
  }
}

FrameLiveness::FieldSet FrameLiveness::getKilled(int32_t from,
                                                 int32_t to) const {
  auto it = nodes[from].killed.find(to);
  return it == nodes[from].killed.end() ? FieldSet(numFields) : it->second;
}

FrameLiveness::FieldSet FrameLiveness::getWritten(int32_t from,
                                                  int32_t to) const {
  auto it = nodes[from].written.find(to);
  return it == nodes[from].written.end() ? FieldSet(numFields) : it->second;
}

FrameLiveness::FieldSet FrameLiveness::getStoreOnSuspend(int32_t from,
                                                         int32_t to) const {
  FieldSet stored = getWritten(from, to);
  stored &= getLiveIn(to);
  return stored;
}
