//===- SPIRVValidation.cpp - SPIR-V validation with SPIRV-Tools -----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/SPIRVValidation.h"

#include <spirv-tools/libspirv.hpp>

#include <string>

using namespace corogpu::runtime;

Status corogpu::runtime::validateSPIRV(const uint32_t *words,
                                       size_t wordCount) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char *,
                               const spv_position_t &position,
                               const char *message) {
    if (!messages.empty())
      messages += "\n";
    // SPIRV-Tools counts instructions there (spirv-val calls it a line).
    messages +=
        "instruction " + std::to_string(position.index) + ": " + message;
  });
  if (!tools.IsValid())
    return Status::failure("cannot create the SPIR-V validator");
  if (tools.Validate(words, wordCount, spvtools::ValidatorOptions()))
    return Status::success();
  if (messages.empty())
    messages = "the validator gave no reason";
  return Status::failure("invalid SPIR-V module (spirv-val, Vulkan 1.2): " +
                         messages);
}
