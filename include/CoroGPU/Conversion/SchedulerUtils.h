//===- SchedulerUtils.h - building blocks for schedulers --------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Pieces every scheduler materialization needs, for the built-in ones and for
// custom schedulers written in C++: where an instance sits in the grid, the
// mega-kernel form of a coroutine body, and a launch as a loop nest. Where
// frames live, and the lowering of frame accesses, is in FrameStorage.h.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_SCHEDULERUTILS_H
#define COROGPU_CONVERSION_SCHEDULERUTILS_H

#include "CoroGPU/Conversion/FrameStorage.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace mlir {
namespace coro {

/// Where an instance sits in the grid: its x, y, z and the grid extents
/// nx, ny that linearize it.
struct InstancePosition {
  Value x, y, z, nx, ny;

  /// The values in the order host functions take them.
  SmallVector<Value> asArguments() const { return {x, y, z, nx, ny}; }
  /// `coro.id` / `coro.frame.id` with an optional dimension.
  Value getId(OpBuilder &builder, Location loc,
              std::optional<uint32_t> dim) const;
};

/// Number of leading index arguments that carry an InstancePosition.
inline constexpr unsigned kNumPositionArgs = 5;

/// Replaces `launch` by a loop nest over its grid (z outermost) whose body,
/// built by `buildInstance`, runs one instance.
void lowerLaunchToLoops(
    LaunchOp launch, RewriterBase &rewriter,
    function_ref<void(OpBuilder &, Location, const InstancePosition &)>
        buildInstance);

/// Rewrites a coroutine body, in place, into its mega-kernel: suspension
/// points and promises are erased, `coro.id` becomes the instance id of
/// `position` (the linear id computed once, at the start of `entry`), and
/// `replaceReturn` rewrites each `coro.return`.
void lowerToMegakernelBody(Region &body, Block &entry,
                           const InstancePosition &position,
                           RewriterBase &rewriter,
                           function_ref<void(ReturnOp)> replaceReturn);

/// Clones the body of `subroutine` (one block, less its return) at the
/// builder's position with its coroutine arguments bound to `args`. The
/// clones keep using the subroutine's frame argument, for
/// `lowerFrameAccesses` (FrameStorage.h) to rewrite onto the scheduler's
/// frame storage.
void cloneSubroutineBody(OpBuilder &builder, func::FuncOp subroutine,
                         ValueRange args);

/// Whether the i32 target `token` says the instance returned (`eq`), or that
/// it did not (`ne`).
Value compareWithTerminatedToken(
    OpBuilder &builder, Location loc, Value token,
    arith::CmpIPredicate predicate = arith::CmpIPredicate::eq);

/// Bounded steps by loop passes (`bound-steps` of the state machine and the
/// persistent threads): a thread stops resuming instances for this launch
/// once it made this many loop passes, counted as a driver's loop limit
/// counts them (addLoopIterationCounter), a quarter of lavapipe's 65535.
constexpr int64_t kLoopPassesPerLaunch = 16384;

/// The loop passes a thread made as of its last step's end, for a state
/// machine loop whose steps stop once they reach kLoopPassesPerLaunch (the
/// state machine's bound-steps, the wavefront's tail kernel).
class LoopPassBudget {
public:
  /// A budget none of which is spent: a memref<1xi32> variable, 0, at the
  /// builder's position (before the loop).
  static LoopPassBudget create(OpBuilder &builder, Location loc);
  /// Whether the passes so far are below the budget (an i1).
  Value isLeft(OpBuilder &builder, Location loc) const;
  /// Once the kernel's loops are counted (`counter`, the memref
  /// addLoopIterationCounter returns): each step of `loop` ends by noting
  /// the passes made, for the next step's condition. (The condition cannot
  /// read the counter itself: the instrumentation would take the budget for
  /// a loop cut short.)
  void noteAtStepEnds(OpBuilder &builder, Location loc, scf::WhileOp loop,
                      Value counter) const;

private:
  explicit LoopPassBudget(Value passes) : passes(passes) {}
  Value passes;
};

/// Builds the state machine of one instance (paper Sec. 6.1): the token
/// starts at the entry, and while it is not "returned", an `scf.index_switch`
/// on it runs the case `buildCase(token)` builds, for tokens 0 to
/// `numSubroutines - 1`; any other token ends the instance. With `maxSteps`
/// the loop resumes from the token `frame` holds (a frame a previous launch
/// left) and also ends after that many passes. With `fallThrough` each pass
/// is a buildFallThroughDispatch instead of the switch. With `budget`, a pass
/// also needs some of it left (LoopPassBudget::isLeft, in the loop's
/// condition). Returns the loop.
scf::WhileOp buildStateMachineLoop(
    OpBuilder &builder, Location loc, const FrameStorage &frame,
    unsigned numSubroutines,
    function_ref<void(OpBuilder &, Location, unsigned)> buildCase,
    std::optional<int64_t> maxSteps = std::nullopt, bool fallThrough = false,
    const LoopPassBudget *budget = nullptr);

/// Builds an `scf.index_switch` on `token` (an index) whose case t, for t
/// from 0 to `numSubroutines - 1`, is what `buildCase(t)` builds, and whose
/// default is what `buildDefault` builds (nothing without one).
void buildSwitchDispatch(
    OpBuilder &builder, Location loc, Value token, unsigned numSubroutines,
    function_ref<void(OpBuilder &, Location, unsigned)> buildCase,
    function_ref<void(OpBuilder &, Location)> buildDefault = nullptr);

/// Builds the cases `buildCase(t)` of tokens 0 to `numSubroutines - 1` as a
/// fall-through dispatch rather than a switch: `if (token == t) { case t }`
/// in token order, each testing the token `frame` holds once the cases
/// before it ran. An instance whose subroutine leaves it at a later token
/// runs that subroutine too, in the same pass; a device that runs every
/// branch of a subgroup, taken or not (lavapipe), pays for all cases once
/// per pass either way, and so gets several subroutines for the price of
/// one, as the mega-kernel's loop body does.
void buildFallThroughDispatch(
    OpBuilder &builder, Location loc, const FrameStorage &frame,
    unsigned numSubroutines,
    function_ref<void(OpBuilder &, Location, unsigned)> buildCase);

/// The launches in `module`, grouped by coroutine, for a scheduler that needs
/// split coroutines; fails with a located error on the launch of a coroutine
/// that has no `coro.split`.
FailureOr<llvm::StringMap<SmallVector<LaunchOp>>>
collectLaunchesOfSplitCoroutines(ModuleOp module);

/// Replaces every `ub.poison` under `root` by a zero constant. Control-flow
/// normalization and the split create poison for values that are never
/// used; GPU targets without a poison lowering (SPIR-V through
/// convert-gpu-to-spirv) get zeros instead, which are as good.
void replacePoisonWithZero(Operation *root, RewriterBase &rewriter);

/// Rewrites every `scf.index_switch` under `root` as a chain of `scf.if`
/// (the SCF to SPIR-V conversion has no switch).
void lowerIndexSwitchToIf(Operation *root, RewriterBase &rewriter);

/// The position of the instance with linear id `id` in a grid of x and y
/// extents `nx` and `ny`, the inverse of `InstancePosition::getId`:
/// x = id mod nx, y = (id / nx) mod ny, z = (id / nx) / ny. For schedulers
/// that iterate over frame slots (or a queue of ids) rather than the grid.
InstancePosition delinearizeInstanceId(OpBuilder &builder, Location loc,
                                       Value id, Value nx, Value ny);

/// Erases every `coro.split` of `module` and its subroutines. The
/// mega-kernel runs the coroutines' bodies, so a split made before (by
/// coro-split, by hand) has no use there.
void eraseSplits(ModuleOp module, RewriterBase &rewriter);

} // namespace coro
} // namespace mlir

#endif // COROGPU_CONVERSION_SCHEDULERUTILS_H
