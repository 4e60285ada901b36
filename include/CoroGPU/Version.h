//===- Version.h - CoroGPU's version and commit -----------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_VERSION_H
#define COROGPU_VERSION_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::coro {

/// CoroGPU's version (the CMake project's), e.g. "0.1.0".
llvm::StringRef getCoroGPUVersion();

/// The commit the tools were built from ("commit <hash>", with ", with
/// uncommitted changes" when the tree differed), or "unknown commit"
/// outside a git checkout.
llvm::StringRef getCoroGPUCommit();

/// Prints "CoroGPU <version> (<commit>)" and the LLVM/MLIR version it was
/// built with: the tools' `--version` (llvm::cl::SetVersionPrinter).
void printCoroGPUVersion(llvm::raw_ostream &os);

} // namespace mlir::coro

#endif // COROGPU_VERSION_H
