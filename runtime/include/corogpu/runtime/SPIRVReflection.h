//===- SPIRVReflection.h - what a SPIR-V module's kernels take --*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Vulkan backend launches kernels by name, binding kernel argument i at
// (set 0, binding i). Drivers are not required to survive a pipeline with
// an unknown entry point, nor a dispatch that leaves a binding it uses
// unbound, so the backend reads both from the module first, with the
// SPIRV-Tools binary parser.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_SPIRVREFLECTION_H
#define COROGPU_RUNTIME_SPIRVREFLECTION_H

#include "corogpu/runtime/Device.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace corogpu::runtime {

/// Reads the entry points of `wordCount` words of SPIR-V into `entryPoints`:
/// each one's name and the number of arguments (descriptor bindings 0..n-1
/// of set 0) its function uses, one more than the largest binding of a
/// variable it loads, stores or indexes directly (not through calls or
/// copied pointers, which our kernels do not have: a lower bound). Fails,
/// with `entryPoints` empty, on words that are no SPIR-V module.
Status readEntryPoints(const uint32_t *words, size_t wordCount,
                       std::map<std::string, uint32_t> &entryPoints);

} // namespace corogpu::runtime

#endif // COROGPU_RUNTIME_SPIRVREFLECTION_H
