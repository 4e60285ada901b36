//===- coro-run.cpp - run a coroutine from a .mlir file -------------------===//
//
// Part of the CoroGPU project.
//
// Loads and verifies a module and describes its coroutines (`--list`). The
// execution backends (Vulkan, CUDA) and the schedulers are not part of this
// build yet, so asking to run a coroutine is a clear error, not a silent no-op.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::desc("<input.mlir>"),
                                                llvm::cl::Required);
static llvm::cl::opt<bool>
    listCoroutines("list",
                   llvm::cl::desc("Describe every coroutine of the module: "
                                  "signature, suspension points, promises"));
static llvm::cl::opt<std::string>
    coroutineName("coro", llvm::cl::desc("Name of the coroutine to run"),
                  llvm::cl::value_desc("symbol"));

/// Prints one line per coroutine: name, signature, suspension points and
/// promise fields, in program order.
static void describeCoroutine(coro::FuncOp coroutine, llvm::raw_ostream &os) {
  os << "@" << coroutine.getSymName() << " : " << coroutine.getFunctionType();
  if (std::optional<Type> yieldType = coroutine.getYieldType())
    os << " yields " << *yieldType;
  unsigned anonymous = 0;
  SmallVector<std::string> suspensions;
  llvm::SetVector<StringRef> promises;
  coroutine.walk([&](Operation *op) {
    if (auto suspend = dyn_cast<coro::SuspendOp>(op)) {
      if (std::optional<StringRef> tag = suspend.getTag())
        suspensions.push_back(("\"" + *tag + "\"").str());
      else
        ++anonymous;
    } else if (auto await = dyn_cast<coro::AwaitOp>(op)) {
      suspensions.push_back(("await @" + await.getCallee()).str());
    } else if (isa<coro::YieldOp>(op)) {
      suspensions.push_back("yield");
    } else if (auto promise = dyn_cast<coro::PromiseOp>(op)) {
      promises.insert(promise.getName());
    }
  });
  os << "\n  suspension points: " << suspensions.size() + anonymous;
  if (anonymous)
    os << " (" << anonymous << " anonymous)";
  for (const std::string &point : suspensions)
    os << " " << point;
  os << "\n  promise fields:";
  for (StringRef name : promises)
    os << " \"" << name << "\"";
  os << "\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "coro-run: run a coro.func from a .mlir file\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registry.insert<coro::CoroDialect>();
  MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string errorMessage;
  auto file = openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << "coro-run: error: " << errorMessage << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1; // The parser or verifier has printed a located error.

  if (listCoroutines) {
    for (auto coroutine : module->getOps<coro::FuncOp>())
      describeCoroutine(coroutine, llvm::outs());
    return 0;
  }
  if (coroutineName.empty()) {
    llvm::errs() << "coro-run: error: name the coroutine to run with "
                    "--coro=<symbol> (see --list)\n";
    return 1;
  }
  auto coroutine = module->lookupSymbol<coro::FuncOp>(coroutineName);
  if (!coroutine) {
    llvm::errs() << "coro-run: error: no coro.func @" << coroutineName << " in "
                 << inputFilename << "\n";
    return 1;
  }
  llvm::errs() << "coro-run: error: this build has no execution backend "
                  "(the Vulkan and CUDA runtimes are not built yet); "
                  "@"
               << coroutineName << " was parsed and verified only\n";
  return 2;
}
