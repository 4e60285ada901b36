//===- WorkgroupMemory.h - how workgroup arrays are laid out ----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the target passes do to workgroup memory that the schedulers'
// budgets must count: a target fact (coro-nvvm-align-globals sets it), so it
// lives here, below the schedulers that include it.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TARGET_WORKGROUPMEMORY_H
#define COROGPU_TARGET_WORKGROUPMEMORY_H

#include <cstdint>

namespace mlir {
namespace coro {

/// The boundary each workgroup array of a scheduler kernel starts on, in
/// the worst case of our targets: the PTX pipeline aligns every global this
/// way, for the vectorized accesses NVPTX makes to them
/// (coro-nvvm-align-globals). Workgroup-memory budgets count the padding.
constexpr int64_t kWorkgroupArrayAlignment = 16;

} // namespace coro
} // namespace mlir

#endif // COROGPU_TARGET_WORKGROUPMEMORY_H
