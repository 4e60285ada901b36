//===- consumer.cpp - use CoroGPU from another project --------------------===//
//
// Parses a generator, runs coro-expand-yield through a PassManager and checks
// that the yield became a promise of "__yielded_value" plus a suspension.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/InitAllCoroGPU.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

static const char *const kInput = R"mlir(
coro.func @count(%n: i32) yields i32 {
  %c0 = arith.constant 0 : i32
  coro.yield %c0 : i32
  coro.yield %n : i32
  coro.return
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect>();
  mlir::coro::registerAllDialects(registry);
  mlir::MLIRContext context(registry);

  auto module = mlir::parseSourceString<mlir::ModuleOp>(kInput, &context);
  if (!module) {
    llvm::errs() << "consumer: failed to parse the input\n";
    return 1;
  }
  mlir::PassManager pm(&context);
  mlir::coro::CoroExpandYieldOptions options;
  options.tagPrefix = "after_yield";
  pm.addNestedPass<mlir::coro::FuncOp>(
      mlir::coro::createCoroExpandYield(options));
  if (mlir::failed(pm.run(*module))) {
    llvm::errs() << "consumer: coro-expand-yield failed\n";
    return 1;
  }

  unsigned yields = 0, promises = 0;
  llvm::SmallVector<llvm::StringRef> tags;
  module->walk([&](mlir::Operation *op) {
    if (mlir::isa<mlir::coro::YieldOp>(op))
      ++yields;
    if (auto promise = mlir::dyn_cast<mlir::coro::PromiseOp>(op))
      promises += promise.getName() == mlir::coro::kYieldedValueField;
    if (auto suspend = mlir::dyn_cast<mlir::coro::SuspendOp>(op))
      tags.push_back(suspend.getTag().value_or(""));
  });
  module->print(llvm::outs());
  bool ok = yields == 0 && promises == 2 && tags.size() == 2 &&
            tags[0] == "after_yield0" && tags[1] == "after_yield1";
  llvm::outs() << (ok ? "consumer: OK\n" : "consumer: FAILED\n");
  return ok ? 0 : 1;
}
