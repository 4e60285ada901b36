//===- coro-run.cpp - run a coroutine from a .mlir file -------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Compiles one coro.func of a module with a scheduler, runs it on a device
// over a grid with the given arguments and buffers, and prints the buffers.
// With --check it also runs the mega-kernel reference (--check=cpu: a run
// on the CPU apart from the split, CPUReference.h) and compares every
// buffer. Example:
//
//   coro-run shade.mlir --coro=shade --grid=64 --arg=4 --buffer=f32:64:zeros \
//       --scheduler=state-machine --check
//
// The tool is the command line over the Runner library (CoroGPU/Runner:
// compile, buffers and their files, kernel arguments, the run, reports),
// which embedders call to run coroutines from C++; --tune (Tune.cpp) runs
// this tool once per configuration. main is the order of the phases: the
// options (Options.cpp), then a CoroRun (CoroRun.h) prepared (Prepare.cpp),
// run (Run.cpp) and reported (Report.cpp).
//
//===----------------------------------------------------------------------===//

#include "CoroRun.h"

#include "CoroGPU/InitAllCoroGPU.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/InitLLVM.h"

using namespace mlir;
using namespace corogpu::cororun;

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  if (!parseCommandLine(argc, argv))
    return kExitUsage;
  if (std::string error = checkCommandLine(); !error.empty())
    return fail(error, kExitUsage);

  DialectRegistry registry;
  coro::registerCoroGPU(registry);
  MLIRContext context(registry);
  // An error names its source line; the op's generic form helps only
  // someone debugging the compiler.
  context.printOpOnDiagnostic(printOpOnDiagnostic);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  // Prepare: what to run, checked before any device; --list, --tune and
  // --emit stop there.
  CoroRun coroRun(context, sourceMgr);
  if (ExitCode code = coroRun.load())
    return code;
  if (listCoroutines)
    return coroRun.list();
  if (ExitCode code = coroRun.choose())
    return code;
  if (tune)
    return coroRun.runTuner(argc, argv);
  if (ExitCode code = coroRun.instrument())
    return code;
  if (emit != EmitKind::None)
    return coroRun.emitCode();
  if (ExitCode code = coroRun.prepareArguments())
    return code;

  // Run.
  if (ExitCode code = coroRun.openDevice())
    return code;
  if (ExitCode code = coroRun.compile())
    return code;
  if (ExitCode code = coroRun.run())
    return code;

  // Report.
  return coroRun.report();
}
