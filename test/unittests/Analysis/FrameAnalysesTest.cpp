//===- FrameAnalysesTest.cpp - frame liveness, layout, recomputation ------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "../CoroIRTest.h"
#include "CoroGPU/Analysis/FrameLayout.h"
#include "CoroGPU/Analysis/FrameLiveness.h"
#include "CoroGPU/Analysis/FrameWordAccesses.h"
#include "CoroGPU/Analysis/Recomputation.h"

using namespace mlir;
using namespace mlir::coro;

namespace {

class FrameAnalysesTest : public test::CoroIRTest {
protected:
  /// The split op of `module` and its subroutines in token order.
  static std::pair<SplitOp, SmallVector<func::FuncOp>>
  getSplit(ModuleOp module) {
    SplitOp split = *module.getOps<SplitOp>().begin();
    SymbolTable symbols(module);
    return {split, *split.lookupSubroutines(symbols)};
  }

  static SmallVector<unsigned> bits(const llvm::BitVector &set) {
    return llvm::to_vector(set.set_bits());
  }
};

using Fields = SmallVector<unsigned>;

// Three subroutines: the entry stores f0 and f1 towards "a"; "a" reads f0,
// overwrites f0 on one path only and always f2, then goes to "b"; "b" reads
// f1 and f2. f3 is written by "a" but never read: dead.
constexpr StringLiteral kGraph = R"mlir(
  coro.func @g(%c: i1, %x: f32) { coro.return }
  func.func @g__entry(%frame: !coro.frame, %c: i1, %x: f32) {
    coro.frame.store %x, %frame[0] : f32
    coro.frame.store %x, %frame[1] : f32
    coro.frame.set_target %frame, 1
    return
  }
  func.func @g__a(%frame: !coro.frame, %c: i1, %x: f32) {
    %v = coro.frame.load %frame[0] : f32
    scf.if %c {
      coro.frame.store %x, %frame[0] : f32
      coro.frame.store %v, %frame[2] : f32
      coro.frame.store %v, %frame[3] : f32
      coro.frame.set_target %frame, 2
    } else {
      coro.frame.store %v, %frame[2] : f32
      coro.frame.set_target %frame, 2
    }
    return
  }
  func.func @g__b(%frame: !coro.frame, %c: i1, %x: f32) {
    %u = coro.frame.load %frame[1] : f32
    %w = coro.frame.load %frame[2] : f32
    coro.frame.store %u, %frame[4] : f32
    coro.frame.set_target %frame, -1
    return
  }
  coro.split @g subroutines [@g__entry, @g__a, @g__b] names ["entry", "a", "b"]
    fields [#coro.field<"f0" : f32 at 2>, #coro.field<"f1" : f32 at 3>,
            #coro.field<"f2" : f32 at 4>, #coro.field<"f3" : f32 at 5>,
            #coro.field<"out" : f32 at 6, promise>]
    transitions []
)mlir";

TEST_F(FrameAnalysesTest, IntraScopeSets) {
  OwningOpRef<ModuleOp> module = parse(kGraph);
  ASSERT_TRUE(module);
  auto [split, subroutines] = getSplit(*module);
  FrameLiveness liveness(split, subroutines);

  EXPECT_EQ(bits(liveness.getExternal(0)), Fields{});
  EXPECT_EQ(bits(liveness.getExternal(1)), Fields({0}));
  EXPECT_EQ(bits(liveness.getExternal(2)), Fields({1, 2}));
  EXPECT_EQ(bits(liveness.getTouched(1)), Fields({0, 2, 3}));
  // "a" writes f0 and f3 on one path only: killed only f2, may write all.
  EXPECT_EQ(bits(liveness.getKilled(1, 2)), Fields({2}));
  EXPECT_EQ(bits(liveness.getWritten(1, 2)), Fields({0, 2, 3}));
  EXPECT_EQ(bits(liveness.getKilled(0, 1)), Fields({0, 1}));
  EXPECT_EQ(liveness.getSuccessors(1), ArrayRef<int32_t>({2}));
  EXPECT_EQ(liveness.getSuccessors(2), ArrayRef<int32_t>({-1}));
  EXPECT_TRUE(liveness.loadsPrecedeStores(1));
}

TEST_F(FrameAnalysesTest, InterScopeLivenessAndEdgeSets) {
  OwningOpRef<ModuleOp> module = parse(kGraph);
  ASSERT_TRUE(module);
  auto [split, subroutines] = getSplit(*module);
  FrameLiveness liveness(split, subroutines);

  // The promise is live after termination, and through "b" (which writes
  // it) it is not needed earlier.
  EXPECT_EQ(bits(liveness.getLiveIn(kTerminatedToken)), Fields({4}));
  EXPECT_EQ(bits(liveness.getLiveIn(2)), Fields({1, 2}));
  // f1 passes through "a" untouched.
  EXPECT_EQ(bits(liveness.getLiveIn(1)), Fields({0, 1}));
  EXPECT_EQ(bits(liveness.getLiveIn(0)), Fields{});
  EXPECT_EQ(bits(liveness.getLoadOnResume(2)), Fields({1, 2}));
  // f0 and f3 are written towards "b" but dead there.
  EXPECT_EQ(bits(liveness.getStoreOnSuspend(1, 2)), Fields({2}));
  EXPECT_EQ(bits(liveness.getStoreOnSuspend(0, 1)), Fields({0, 1}));
  EXPECT_EQ(bits(liveness.getStoreOnSuspend(2, kTerminatedToken)), Fields({4}));
}

TEST_F(FrameAnalysesTest, InterferenceFollowsLiveness) {
  OwningOpRef<ModuleOp> module = parse(kGraph);
  ASSERT_TRUE(module);
  auto [split, subroutines] = getSplit(*module);
  FrameInterference graph =
      FrameInterference::fromLiveness(FrameLiveness(split, subroutines));
  EXPECT_TRUE(graph.interfere(0, 1));  // Both live when "a" starts.
  EXPECT_TRUE(graph.interfere(1, 2));  // Both live when "b" starts.
  EXPECT_FALSE(graph.interfere(0, 2)); // f0 dies when f2 is born.
  EXPECT_FALSE(graph.interfere(3, 0)); // f3 is never live.
}

TEST_F(FrameAnalysesTest, LayoutSharesPacksAndAligns) {
  MLIRContext &ctx = context;
  auto field = [&](StringRef name, Type type, bool promise = false) {
    return FrameFieldAttr::get(&ctx, StringAttr::get(&ctx, name), type,
                               kFirstFieldWord, 0, promise);
  };
  Builder b(&ctx);
  SmallVector<FrameFieldAttr> fields = {
      field("flag0", b.getI1Type()),      field("a", b.getF32Type()),
      field("wide", b.getIndexType()),    field("flag1", b.getI1Type()),
      field("half", b.getF16Type()),      field("b", b.getF32Type()),
      field("hint", b.getI32Type(), true)};
  // Everything interferes except a and b.
  FrameInterference graph(fields.size());
  for (unsigned i = 0; i < fields.size(); ++i)
    for (unsigned j = i + 1; j < fields.size(); ++j)
      if (!(i == 1 && j == 5))
        graph.add(i, j);

  SmallVector<FrameFieldAttr> placed = layOutFrame(fields, graph, {});
  // Promise first, then widest first: hint 2, wide 3-4, a 5, b shares 5,
  // half in word 6, the flags in the bits after it.
  EXPECT_EQ(placed[6].getWord(), 2);
  EXPECT_EQ(placed[2].getWord(), 3);
  EXPECT_EQ(placed[1].getWord(), 5);
  EXPECT_EQ(placed[5].getWord(), 5);
  EXPECT_EQ(placed[4].getWord(), 6);
  EXPECT_EQ(placed[4].getBit(), 0);
  EXPECT_EQ(placed[0].getWord(), 6);
  EXPECT_EQ(placed[0].getBit(), 16);
  EXPECT_EQ(placed[3].getWord(), 6);
  EXPECT_EQ(placed[3].getBit(), 17);
  EXPECT_EQ(getFrameBytes(placed), 7 * 4);

  // Without bit packing the flags take a byte each; without sharing b gets
  // a word of its own.
  SmallVector<FrameFieldAttr> bytes =
      layOutFrame(fields, graph, {/*shareStorage=*/true, /*packBits=*/false});
  EXPECT_EQ(bytes[0].getBit(), 16);
  EXPECT_EQ(bytes[3].getBit(), 24);
  SmallVector<FrameFieldAttr> unshared =
      layOutFrame(fields, graph, {/*shareStorage=*/false, /*packBits=*/true});
  EXPECT_NE(unshared[1].getWord(), unshared[5].getWord());
  EXPECT_EQ(getFrameBytes(unshared), 8 * 4);
  // The unpacked layout: one field after the other, whole words.
  EXPECT_EQ(getFrameBytes(layOutUnpacked(fields)),
            (2 + 1 + 1 + 2 + 1 + 1 + 1 + 1) * 4);
}

TEST_F(FrameAnalysesTest, RecomputationDecisions) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    coro.func @r(%in: memref<?xf32>, %out: memref<?xf32>, %x: f32) {
      %c0 = arith.constant 0 : index
      %sq = arith.mulf %x, %x : f32
      %i = memref.load %out[%c0] : memref<?xf32>
      %twice = arith.addf %i, %i : f32
      %j = arith.fptosi %i : f32 to i32
      %idx = arith.index_cast %j : i32 to index
      %v = vector.load %in[%idx] : memref<?xf32>, vector<4xf32>
      %w = vector.load %out[%idx] : memref<?xf32>, vector<4xf32>
      memref.store %x, %out[%c0] : memref<?xf32>
      coro.return
    })mlir");
  ASSERT_TRUE(module);
  auto coroutine = *module->getOps<FuncOp>().begin();
  auto valueOf = [&](StringRef opName, unsigned nth = 0) -> Value {
    Value found;
    coroutine.walk([&](Operation *op) {
      if (op->getName().getStringRef() == opName && !found && nth-- == 0)
        found = op->getResult(0);
    });
    return found;
  };
  RecomputeAnalysis analysis(coroutine, {});
  EXPECT_TRUE(analysis.isReadOnlyArgument(coroutine.getArgument(0)));
  EXPECT_FALSE(analysis.isReadOnlyArgument(coroutine.getArgument(1)));

  // From arguments alone: recomputed, needs nothing.
  llvm::SetVector<Value> inputs;
  analysis.addFrameInputs(valueOf("arith.mulf"), inputs);
  EXPECT_TRUE(inputs.empty());
  // As big as its input: stored.
  Value twice = valueOf("arith.addf");
  EXPECT_FALSE(analysis.isRecomputed(twice));
  // The read-only load is redone from the i32 its index comes from; the
  // load of the written buffer is not.
  Value v = valueOf("vector.load", 0);
  EXPECT_TRUE(analysis.isRecomputed(v));
  inputs.clear();
  analysis.addFrameInputs(v, inputs);
  ASSERT_EQ(inputs.size(), 1u);
  EXPECT_EQ(inputs[0], valueOf("arith.fptosi"));
  EXPECT_FALSE(analysis.isRecomputed(valueOf("vector.load", 1)));

  // A chain longer than the limit is stored.
  RecomputeAnalysis strict(coroutine, {/*maxOps=*/1, /*deferLoads=*/true});
  EXPECT_FALSE(strict.isRecomputed(v));
  RecomputeAnalysis noDefer(coroutine, {/*maxOps=*/4, /*deferLoads=*/false});
  EXPECT_FALSE(noDefer.isRecomputed(v));
  EXPECT_EQ(RecomputeAnalysis::getFrameBits(v), 128);
}

// A subroutine that writes words 4 and 5 (n) first, reads word 2 (f)
// before writing it, read-modify-writes word 3 (k, narrow), and writes word
// 6 (g) on one path only.
constexpr StringLiteral kWordAccesses = R"mlir(
  coro.func @w(%c: i1, %x: f32, %k: i8, %n: index) { coro.return }
  func.func @w__entry(%frame: !coro.frame, %c: i1, %x: f32, %k: i8,
                      %n: index) {
    coro.frame.store %n, %frame[2] : index
    %v = coro.frame.load %frame[0] : f32
    coro.frame.store %x, %frame[0] : f32
    coro.frame.store %k, %frame[1] : i8
    scf.if %c {
      coro.frame.store %x, %frame[3] : f32
      %m = coro.frame.load %frame[2] : index
    }
    coro.frame.set_target %frame, -1
    return
  }
  coro.split @w subroutines [@w__entry] names ["entry"]
    fields [#coro.field<"f" : f32 at 2>, #coro.field<"k" : i8 at 3:8>,
            #coro.field<"n" : index at 4>, #coro.field<"g" : f32 at 6>]
    transitions []
)mlir";

TEST_F(FrameAnalysesTest, FrameWordAccesses) {
  OwningOpRef<ModuleOp> module = parse(kWordAccesses);
  ASSERT_TRUE(module);
  auto [split, subroutines] = getSplit(*module);
  FrameWordAccesses used =
      FrameWordAccesses::compute(subroutines.front(), split.getFrameFields());
  // n: 2 + 2, f: 1 + 1, k: 2 (read and write), g: 1.
  EXPECT_EQ(used.accesses, 9);
  EXPECT_EQ(used.read, std::set<int64_t>({2, 3, 4, 5}));
  EXPECT_EQ(used.written, std::set<int64_t>({2, 3, 4, 5, 6}));
  EXPECT_EQ(used.writtenFirst, std::set<int64_t>({4, 5}));
  // g is written on one path only: copied in so that copying it out on the
  // other path writes back what was there.
  EXPECT_EQ(used.getCopyInWords(), std::set<int64_t>({2, 3, 6}));
}

} // namespace
