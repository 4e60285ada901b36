//===- InstalledLLVMStatistics.h - statistics as the installed LLVM -------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Included before anything else in every source file of a CoroGPU build
// with COROGPU_ENABLE_ASSERTIONS against an LLVM built without assertions.
// llvm/ADT/Statistic.h makes statistics count (llvm::TrackingStatistic)
// unless NDEBUG is defined where it is first included, and
// mlir::Pass::Statistic derives from the chosen class: our passes must see
// the class the installed libMLIR was built with (llvm::NoopStatistic), so
// the header is included here with NDEBUG, and assert() enabled again after.
//
//===----------------------------------------------------------------------===//

#if defined(__cplusplus) && __has_include("llvm/ADT/Statistic.h")
#ifndef NDEBUG
#define NDEBUG
#include "llvm/ADT/Statistic.h"
#undef NDEBUG
#include <cassert>
#endif
#endif
