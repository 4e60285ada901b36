// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- BatchedToFunc.cpp - a custom breadth-first scheduler, as a plugin --===//
//
// An example of a scheduler written outside CoroGPU, against its public
// headers only (see docs/custom-schedulers.md). It runs a split coroutine
// breadth first, a CPU analogue of the paper's wavefront scheduler (Sec.
// 6.2): the frames of all instances of a launch live in one structure-of-
// arrays buffer; the entry subroutine runs on every instance, then each round
// runs subroutine 1 on every instance whose target token is 1, subroutine 2
// on every instance whose token is 2, and so on, while any instance has not
// returned.
//
//   coro.launch @f[%nx, %ny](%a)  ==>  %n = nx * ny
//                                      %words = memref.alloc(n * frame words)
//                                      zero %words; coro_id of frame i = i
//                                      scf.for %i < %n: call @f__entry(...)
//                                      scf.while (some token != -1):
//                                        scf.for %i < %n:      (for each t>0)
//                                          if token of frame %i == t:
//                                            call @f__<name t>(%words, %i,
//                                                %n, %nx, %ny, %a)
//                                      memref.dealloc %words
//
// Subroutines take (frame words, instance, number of instances, nx, ny,
// args...) instead of (!coro.frame, args...).
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/SchedulerUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;
using namespace mlir::coro;

/// The frame of `instance` in `words`, which holds the frames of
/// `numInstances` instances of `split`, word w of every frame consecutive.
static FrameArraySlot getFrame(SplitOp split, Value words, Value instance,
                               Value numInstances) {
  return FrameArraySlot(words, split.getFrameWords(), instance, numInstances,
                        FrameArrayLayout::SoA);
}

static MemRefType getWordsType(MLIRContext *context) {
  return MemRefType::get({ShapedType::kDynamic}, IntegerType::get(context, 32));
}

/// (frame, args) -> (words, instance, numInstances, nx, ny, args): the
/// `coro.frame.*` ops become loads and stores of the instance's frame.
static LogicalResult lowerSubroutine(func::FuncOp subroutine, SplitOp split,
                                     RewriterBase &rewriter) {
  Block &entry = subroutine.getBody().front();
  Location loc = subroutine.getLoc();
  Type index = rewriter.getIndexType();
  Type types[] = {getWordsType(rewriter.getContext()), index, index, index,
                  index};
  for (auto [offset, type] : llvm::enumerate(types))
    entry.insertArgument(1 + offset, type, loc);
  Value frame = entry.getArgument(0), words = entry.getArgument(1),
        instance = entry.getArgument(2);
  // `coro.frame.id` is the instance; with a dimension, a component of its
  // position in the grid (dead code where there is none).
  for (Operation *user : llvm::make_early_inc_range(frame.getUsers()))
    if (auto id = dyn_cast<FrameIdOp>(user); id && !id.getDim())
      rewriter.replaceOp(id, instance);
  rewriter.setInsertionPointToStart(&entry);
  InstancePosition position = delinearizeInstanceId(
      rewriter, loc, instance, entry.getArgument(4), entry.getArgument(5));
  if (failed(lowerFrameAccesses(
          frame, split, getFrame(split, words, instance, entry.getArgument(3)),
          position)))
    return failure();
  entry.eraseArgument(0);
  subroutine.setType(rewriter.getFunctionType(entry.getArgumentTypes(), {}));
  return success();
}

/// Replaces `launch` by the breadth-first rounds described above.
static void lowerLaunch(LaunchOp launch, SplitOp split,
                        ArrayRef<func::FuncOp> subroutines,
                        RewriterBase &rewriter) {
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value zero = index(0), one = index(1);
  SmallVector<Value, 3> grid(launch.getGrid());
  grid.resize(3, one);
  Value n = rewriter.createOrFold<arith::MulIOp>(loc, grid[0], grid[1]);
  n = rewriter.createOrFold<arith::MulIOp>(loc, n, grid[2]);
  Value size = rewriter.createOrFold<arith::MulIOp>(
      loc, n, index(split.getFrameWords()));
  Value words = memref::AllocOp::create(
      rewriter, loc, getWordsType(rewriter.getContext()), ValueRange{size});
  Value zeroWord = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
  Value returned =
      arith::ConstantIntOp::create(rewriter, loc, kTerminatedToken, 32);

  // scf.for %i = 0 to %n { body(%i, frame of %i) }
  auto forEachInstance = [&](OpBuilder &builder, auto body) {
    scf::ForOp::create(builder, loc, zero, n, one, ValueRange{},
                       [&](OpBuilder &b, Location, Value i, ValueRange) {
                         body(b, i, getFrame(split, words, i, n));
                         scf::YieldOp::create(b, loc);
                       });
  };
  // Calls the subroutine of `token` on instance `i`.
  SmallVector<Value> operands = {words, Value(), n, grid[0], grid[1]};
  llvm::append_range(operands, launch.getArgs());
  auto call = [&](OpBuilder &b, Value i, unsigned token) {
    operands[1] = i;
    func::CallOp::create(b, loc, subroutines[token], operands);
  };

  // Zeroed frames (narrow fields are read-modify-written; the entry token is
  // 0), each instance's id in its coro_id word; then every entry runs.
  scf::ForOp::create(rewriter, loc, zero, size, one, ValueRange{},
                     [&](OpBuilder &b, Location, Value word, ValueRange) {
                       memref::StoreOp::create(b, loc, zeroWord, words, word);
                       scf::YieldOp::create(b, loc);
                     });
  forEachInstance(
      rewriter, [&](OpBuilder &b, Value i, const FrameArraySlot &f) {
        Value id = arith::IndexCastOp::create(b, loc, b.getI32Type(), i);
        f.storeWord(b, loc, kCoroIdWord, id);
        call(b, i, kEntryToken);
      });

  // The rounds: while some token is not "returned", one sweep per token.
  auto rounds = scf::WhileOp::create(
      rewriter, loc, TypeRange{}, ValueRange{},
      [&](OpBuilder &b, Location, ValueRange) {
        Value none = arith::ConstantIntOp::create(b, loc, 0, 1);
        auto scan = scf::ForOp::create(
            b, loc, zero, n, one, ValueRange{none},
            [&](OpBuilder &b, Location, Value i, ValueRange seen) {
              Value token = getFrame(split, words, i, n).loadToken(b, loc);
              Value running = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::ne, token, returned);
              Value any = arith::OrIOp::create(b, loc, seen[0], running);
              scf::YieldOp::create(b, loc, any);
            });
        scf::ConditionOp::create(b, loc, scan.getResult(0), ValueRange{});
      },
      [&](OpBuilder &b, Location, ValueRange) {
        for (unsigned token = 1; token < subroutines.size(); ++token)
          forEachInstance(b, [&](OpBuilder &b, Value i,
                                 const FrameArraySlot &f) {
            Value expected = arith::ConstantIntOp::create(b, loc, token, 32);
            Value matches =
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      f.loadToken(b, loc), expected);
            scf::IfOp::create(b, loc, matches, [&](OpBuilder &b, Location) {
              call(b, i, token);
              scf::YieldOp::create(b, loc);
            });
          });
        scf::YieldOp::create(b, loc);
      });
  rewriter.setInsertionPointAfter(rounds);
  memref::DeallocOp::create(rewriter, loc, words);
  rewriter.eraseOp(launch);
}

namespace {

struct BatchedToFuncPass
    : PassWrapper<BatchedToFuncPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BatchedToFuncPass)

  StringRef getArgument() const final { return "coro-example-batched-to-func"; }
  StringRef getDescription() const final {
    return "Runs split coroutines breadth first on the host (an example of a "
           "custom scheduler)";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    memref::MemRefDialect, scf::SCFDialect>();
  }

  void runOnOperation() final {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());
    SymbolTable symbols(module);
    // Fails on the launch of a coroutine that coro-split has not split.
    auto launches = collectLaunchesOfSplitCoroutines(module);
    if (failed(launches))
      return signalPassFailure();

    for (SplitOp split : llvm::make_early_inc_range(module.getOps<SplitOp>())) {
      auto subroutines = split.lookupSubroutines(symbols);
      if (failed(subroutines))
        return signalPassFailure();
      for (func::FuncOp subroutine : *subroutines)
        if (failed(lowerSubroutine(subroutine, split, rewriter)))
          return signalPassFailure();
      for (LaunchOp launch : launches->lookup(split.getCoroutine()))
        lowerLaunch(launch, split, *subroutines, rewriter);
      // The coroutine and its graph are no longer needed.
      rewriter.eraseOp(symbols.lookup(split.getCoroutine()));
      rewriter.eraseOp(split);
    }
  }
};

} // namespace

/// The entry point `--load-pass-plugin` looks for.
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "CoroCustomSchedulerExample",
          LLVM_VERSION_STRING, [] { PassRegistration<BatchedToFuncPass>(); }};
}
