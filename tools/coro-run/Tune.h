//===- Tune.h - coro-run --tune: pick a scheduler ---------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TOOLS_CORORUN_TUNE_H
#define COROGPU_TOOLS_CORORUN_TUNE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace corogpu::tune {

struct TuneOptions {
  /// This coro-run binary, which runs every configuration in a process of
  /// its own (a crash or a hang under one does not end the others).
  std::string executable;
  /// The user's arguments: the file, --coro, the grid, the arguments and
  /// buffers, the device; no scheduler options.
  std::vector<std::string> runArguments;
  /// Options of the wavefront and persistent host loops (--capacity,
  /// --persistent-threads, --max-rounds, ...) for their configurations.
  std::vector<std::string> wavefrontArguments;
  std::vector<std::string> persistentArguments;
  /// The host loops' limits (--max-rounds, --time-limit), for every
  /// configuration with one (wavefront, persistent, bounded steps).
  std::vector<std::string> limitArguments;
  /// Integer promise fields of the coroutine (--sort-by candidates).
  std::vector<std::string> sortKeys;
  unsigned repeat = 5;
  unsigned timeoutSeconds = 600;
  /// Where to write the results as JSON (empty: nowhere); `json` prints
  /// them on stdout instead of the table.
  std::string jsonPath;
  bool json = false;
};

/// Runs the coroutine under every scheduler and its main options, each
/// --check'ed against the mega-kernel, and prints them ranked by median GPU
/// time. Returns coro-run's exit code: 0 when every configuration ran and
/// matched, else that of the first that did not.
int runTuner(const TuneOptions &options);

} // namespace corogpu::tune

#endif // COROGPU_TOOLS_CORORUN_TUNE_H
