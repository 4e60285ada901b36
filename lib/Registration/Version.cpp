//===- Version.cpp - CoroGPU's version and commit -------------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Version.h"

#include "CoroGPU/VersionInfo.inc"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

llvm::StringRef mlir::coro::getCoroGPUVersion() { return COROGPU_VERSION; }

llvm::StringRef mlir::coro::getCoroGPUCommit() { return COROGPU_COMMIT; }

void mlir::coro::printCoroGPUVersion(llvm::raw_ostream &os) {
  os << "CoroGPU " << getCoroGPUVersion() << " (" << getCoroGPUCommit()
     << ")\n  built with LLVM/MLIR " << LLVM_VERSION_STRING << "\n";
}
