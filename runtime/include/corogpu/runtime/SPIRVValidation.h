//===- SPIRVValidation.h - SPIR-V validation before a driver sees it ------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Drivers are free to reject, crash on or miscompile an invalid SPIR-V
// module (lavapipe usually runs one anyway), so every module is validated
// with the SPIRV-Tools validator, the library behind `spirv-val`, before it
// reaches a driver.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_SPIRVVALIDATION_H
#define COROGPU_RUNTIME_SPIRVVALIDATION_H

#include "corogpu/runtime/Device.h"

#include <cstddef>
#include <cstdint>

namespace corogpu {
namespace runtime {

/// Validates `wordCount` words of SPIR-V for a Vulkan 1.2 environment, as
/// `spirv-val --target-env vulkan1.2` does. On failure the status holds the
/// validator's messages (each names the offending instruction).
Status validateSPIRV(const uint32_t *words, size_t wordCount);

} // namespace runtime
} // namespace corogpu

#endif // COROGPU_RUNTIME_SPIRVVALIDATION_H
