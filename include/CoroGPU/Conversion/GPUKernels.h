//===- GPUKernels.h - building blocks for GPU schedulers --------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the GPU schedulers share: the gpu.module that holds the kernels, a
// kernel that runs one coroutine instance per thread of a 3-D grid, a
// coro.launch turned into the gpu.launch_func of such a kernel, the
// opening of a scheduler pass (its checks, runSchedulerPass), and the
// helpers and collectives the scheduling kernels are built with.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_GPUKERNELS_H
#define COROGPU_CONVERSION_GPUKERNELS_H

#include "CoroGPU/Conversion/SchedulerUtils.h"
#include "CoroGPU/Target/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <functional>
#include <optional>

namespace mlir {
namespace coro {

/// Name of the gpu.module that holds the kernels of all coroutines.
inline constexpr llvm::StringLiteral kKernelModuleName = "coro_kernels";

/// Returns the module's `gpu.module @coro_kernels`, creating it (and marking
/// the module as a GPU container) if needed.
gpu::GPUModuleOp getOrCreateKernelModule(ModuleOp module,
                                         RewriterBase &rewriter);

/// Kernels in the module's `gpu.module @coro_kernels` (0 without one): what
/// a scheduler pass emitted, for its statistics.
int64_t countSchedulerKernels(ModuleOp module);

/// An empty kernel `@name(inputs)` at the end of `kernels` (its body is a
/// `gpu.return`) with `spirv.entry_point_abi` for a workgroup of
/// `workgroupSize` threads in x.
gpu::GPUFuncOp createKernel(gpu::GPUModuleOp kernels, StringRef name,
                            TypeRange inputs, int64_t workgroupSize,
                            Location loc, RewriterBase &rewriter);

/// A kernel `@name(%nx, %ny, %nz: index, args...)` with one thread per
/// instance of an (nx, ny, nz) grid and a workgroup of `workgroupSize`
/// threads in x. `body` is the block, guarded by "the thread's instance lies
/// inside the grid", where the instance's work goes (before its terminator).
/// With `withStatus`, the kernel takes the status buffer of
/// corogpu/runtime/InstanceABI.h (`memref<2xi32>`) last, as `status`.
struct InstanceKernel {
  gpu::GPUFuncOp kernel;
  Block *body;
  ValueRange args;
  InstancePosition position;
  Value status;
};
InstanceKernel createInstanceKernel(gpu::GPUModuleOp kernels, StringRef name,
                                    TypeRange argTypes, int64_t workgroupSize,
                                    bool withStatus, Location loc,
                                    RewriterBase &rewriter);

/// The type of the instance kernels' status buffer.
MemRefType getInstanceStatusType(MLIRContext *context);

/// Adds one to the kInstancesReturned word of `status`, at the builder's
/// insertion point: the instance returned.
void recordInstanceReturned(OpBuilder &builder, Location loc, Value status);

/// Counts, in a thread-private counter, the passes through every loop
/// nested in `body` (those there now): one per loop entered and one per
/// iteration, as lavapipe's loop limiter does. At the end of the body, raises
/// word `word` of the i32 buffer `buffer` to the count (atomic max): how a
/// runtime learns that a driver's loop limit (lavapipe: 65535 passes per
/// invocation in all) cut a thread short. lavapipe runs the 8 threads of a
/// subgroup as one invocation, whose passes are those of its busiest
/// thread loop by loop: threads that spend their passes in different loops
/// count fewer than lavapipe does (docs/schedulers.md). So a thread that saw
/// a loop end although its exit condition said to run on raises the word to
/// kLoopEndedByLimit (LoopLimitABI.h), which catches what the count misses.
/// Returns the counter (a memref<1xi32> alloca at the start of `body`, the
/// passes so far wherever it is read), or nothing where `body` has no loop.
Value addLoopIterationCounter(Block *body, Value buffer, int64_t word,
                              RewriterBase &rewriter);

/// The bytes a workgroup array of `size` i32 can take, padding included.
int64_t getWorkgroupArrayBytes(int64_t size);

/// What the kernels of the schedulers (wavefront, persistent threads) are
/// built from: constants, i32 and index arithmetic (the scheduler's own
/// values are i32), structured control flow, workgroup arrays and the
/// collectives over them, all at the rewriter's insertion point with one
/// location (SchedulerKernelBuilder.cpp).
class SchedulerKernelBuilder {
public:
  SchedulerKernelBuilder(RewriterBase &rewriter, Location loc)
      : rewriter(rewriter), loc(loc) {}

protected:
  Value i32(int64_t value);
  Value index(int64_t value);
  Value toIndex(Value value);
  Value toI32(Value value);
  Value add(Value a, Value b);
  Value sub(Value a, Value b);
  Value mul(Value a, Value b);
  Value select(Value condition, Value a, Value b);
  Value compare(arith::CmpIPredicate predicate, Value a, Value b);
  Value equal(Value a, Value b);
  Value notEqual(Value a, Value b);
  /// a < b, as unsigned / as signed integers.
  Value lessThanUnsigned(Value a, Value b);
  Value lessThanSigned(Value a, Value b);
  /// (value + divisor - 1) / divisor, for an i32 or an index;
  /// arith.ceildivui has no SPIR-V lowering.
  Value ceilDiv(Value value, int64_t divisor);
  /// 1 or 0 as an i32.
  Value boolToI32(Value flag);
  /// The set bits of the i32 `word`, with shifts, masks and a multiply
  /// (MLIR 22 lowers no math.ctpop to SPIR-V).
  Value countBits(Value word);
  /// `if (condition) { then() }`; the insertion point stays after it.
  void buildIf(Value condition, function_ref<void()> then);
  /// `condition ? then() : otherwise()` for an i32 computed in regions.
  Value buildIfValue(Value condition, function_ref<Value()> then,
                     function_ref<Value()> otherwise);
  /// `for (i = begin; i < end; i += step) body(i)`.
  void buildLoop(Value begin, Value end, Value step,
                 function_ref<void(Value)> body);
  /// A workgroup array of `size` i32 in `kernel`.
  Value addWorkgroupArray(gpu::GPUFuncOp kernel, int64_t size);

  //===--------------------------------------------------------------------===//
  // Collectives
  //===--------------------------------------------------------------------===//

  /// The sum over j in [begin, end) of `term(j)` (i32), in one thread.
  Value buildSum(Value begin, Value end, Value step,
                 function_ref<Value(Value)> term);
  /// Number of entries of the i32 array `array` in [0, end) equal to
  /// `value`, in one thread.
  Value countEqual(Value array, Value end, Value value);
  /// Inclusive prefix sums over the lanes of the workgroup of
  /// `workgroupSize` threads, in place, of `words` arrays of workgroupSize
  /// i32 stored one after the other in the workgroup array `counters`
  /// (Hillis-Steele: log2(workgroupSize) steps, two barriers each, and one
  /// before). Every thread of the workgroup must call it.
  void buildInclusiveScan(Value counters, int64_t words, Value lane,
                          int64_t workgroupSize);

  /// A thread's part in the ballots of its subgroup (getBallotLane): its
  /// lane (an i32), the i32 0 ballots start from, whether it has a bit in
  /// them, and its bit (1 << lane, or 0). Ballots have 32 bits: lanes past
  /// the 32nd (subgroups of 64) have none.
  struct BallotLane {
    Value lane, zero, hasBit, bit;
  };
  BallotLane getBallotLane();
  /// The add-reduction of the i32 `value` over the subgroup; every lane of
  /// the subgroup must reach it (uniform).
  Value subgroupAdd(Value value);
  /// The lanes of the subgroup where `predicate` holds, as the sum of their
  /// bits (an or-reduction). Every lane of the subgroup must reach it.
  Value subgroupBallot(const BallotLane &lane, Value predicate);
  /// The lanes of `ballot` below `lane`: its rank among them.
  Value countLanesBelow(const BallotLane &lane, Value ballot);

  RewriterBase &rewriter;
  Location loc;
};

/// Rewrites what the kernels of `kernels` may contain but not every GPU
/// target accepts (poison values, scf.index_switch, vector selects on a
/// scalar condition), so that both the SPIR-V
/// and the NVVM pipelines take them. Every GPU scheduler ends with it.
void legalizeKernelsForTargets(gpu::GPUModuleOp kernels,
                               RewriterBase &rewriter);

/// Fails, with located errors, on what no GPU target can lower: a
/// workgroup size that is not positive (the error names `pass`), a
/// coroutine argument that is a memref of rank 2 or more with a dynamic
/// size, a call from a coroutine or subroutine to a function declared
/// without a body. Every GPU scheduler starts with it.
LogicalResult checkSchedulerInput(ModuleOp module, StringRef pass,
                                  int64_t workgroupSize);

/// For a scheduler whose host side runs in the CoroGPU runtime: fails, with
/// an error at the first `coro.launch` of a split coroutine, saying that the
/// `scheduler` scheduler cannot lower it because `hostSide`, and what to do
/// instead (and at any launch of a coroutine with no `coro.split`).
LogicalResult rejectLaunchesOfSplitCoroutines(
    ModuleOp module, StringRef scheduler, StringRef hostSide,
    StringRef instead = "use the state-machine scheduler for launches in IR");

/// Builds the kernels of each of `splits` into the module's kernel module
/// with `lowerSplit`, which records the plan that tells the runtime how to
/// run them (coro_plan dialect, `plan::setPlan`). Then legalizes the
/// kernels for the targets.
using LowerSplitFn = function_ref<LogicalResult(
    SplitOp, SymbolTable &, gpu::GPUModuleOp, RewriterBase &)>;
LogicalResult lowerSplitsWithPlans(ModuleOp module, ArrayRef<SplitOp> splits,
                                   LowerSplitFn lowerSplit);
/// The same with the `lowerSplit` member of a scheduler's pass.
template <typename SchedulerPass>
LogicalResult lowerSplitsWithPlans(ModuleOp module, ArrayRef<SplitOp> splits,
                                   SchedulerPass &pass) {
  return lowerSplitsWithPlans(
      module, splits,
      [&](SplitOp split, SymbolTable &symbols, gpu::GPUModuleOp kernels,
          RewriterBase &rewriter) {
        return pass.lowerSplit(split, symbols, kernels, rewriter);
      });
}

/// Where a GPU scheduler pass checks that coro-split ran (checkSplitRan).
enum class SplitCheck {
  /// Nowhere: the pass runs whole coroutines (the mega-kernel).
  None,
  /// Right after the input checks, before the pass's options.
  BeforeOptions,
  /// After the launches, so that an error at a launch names it first.
  AfterLaunches,
};

/// A scheduler whose host side runs in the CoroGPU runtime, which launches
/// its kernels: the words of the error at a coro.launch in IR
/// (rejectLaunchesOfSplitCoroutines).
struct LaunchRejection {
  StringRef scheduler, hostSide;
  StringRef instead = "use the state-machine scheduler for launches in IR";
};

/// What a GPU scheduler pass checks before it builds kernels
/// (runSchedulerPass).
struct SchedulerPassOpening {
  /// The pass's argument, which errors name, and its workgroup-size.
  StringRef pass;
  int64_t workgroupSize;
  SplitCheck splitCheck = SplitCheck::BeforeOptions;
  /// The checks of the pass's own options, if it has any.
  std::function<LogicalResult()> checkOptions;
  /// Set where the runtime launches the kernels: a launch of a split
  /// coroutine is then an error. Otherwise a pass on split coroutines lowers
  /// the launches, and checks that each launches a split coroutine.
  std::optional<LaunchRejection> rejectLaunches;
};

/// Runs a GPU scheduler pass on `module`, in this order:
/// checkSchedulerInput; checkSplitRan (BeforeOptions); the pass's option
/// checks; the launches (rejected, or checked for a pass on split
/// coroutines); checkSplitRan (AfterLaunches); then `lower` on the module's
/// coro.split ops, which a pass on split coroutines skips where there are
/// none. Adds the kernels `lower` emits to `numKernels`. Fails, after a
/// located error, where a check or `lower` does.
using LowerModuleFn = function_ref<LogicalResult(ArrayRef<SplitOp>)>;
LogicalResult runSchedulerPass(ModuleOp module,
                               const SchedulerPassOpening &opening,
                               LowerModuleFn lower,
                               Pass::Statistic &numKernels);

/// Replaces `launch` by the gpu.launch_func of its coroutine's kernel, with
/// ceil(gx / workgroupSize) x gy x gz workgroups. With `withStatus`, the
/// host code passes a zeroed status buffer (memref.alloc) and asserts
/// (cf.assert) after the launch that every instance returned.
void lowerLaunchToGPU(LaunchOp launch, int64_t workgroupSize, bool withStatus,
                      RewriterBase &rewriter);

} // namespace coro
} // namespace mlir

#endif // COROGPU_CONVERSION_GPUKERNELS_H
