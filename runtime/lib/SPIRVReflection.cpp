//===- SPIRVReflection.cpp - entry points of SPIR-V with SPIRV-Tools ------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The module is read by SPIRV-Tools' binary parser (the library behind
// `spirv-dis`), which checks its structure (header, word counts, operands),
// and its instructions are matched with the SPIR-V headers' enums.
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/SPIRVReflection.h"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cstring>
#include <set>

using namespace corogpu::runtime;

namespace {
/// What the parse gathers, instruction by instruction.
struct Reflection {
  /// Entry point function -> its name.
  std::map<uint32_t, std::string> entryFunctions;
  /// Variable -> its binding.
  std::map<uint32_t, uint32_t> bindings;
  /// Function -> the variables it uses directly.
  std::map<uint32_t, std::set<uint32_t>> reached;
  /// The function whose body is being parsed (0: none).
  uint32_t function = 0;
};
} // namespace

/// The word of operand `index` of `instruction`, or 0 when it has none.
static uint32_t getOperandWord(const spv_parsed_instruction_t &instruction,
                               uint16_t index) {
  if (index >= instruction.num_operands)
    return 0;
  return instruction.words[instruction.operands[index].offset];
}

static spv_result_t reflectInstruction(void *userData,
                                       const spv_parsed_instruction_t *parsed) {
  Reflection &reflection = *static_cast<Reflection *>(userData);
  const spv_parsed_instruction_t &instruction = *parsed;
  // The function uses the variable operand `index` points to.
  auto reach = [&](uint16_t index) {
    if (reflection.function && index < instruction.num_operands)
      reflection.reached[reflection.function].insert(
          getOperandWord(instruction, index));
  };
  switch (static_cast<spv::Op>(instruction.opcode)) {
  case spv::Op::OpEntryPoint: {
    // Execution model, function, name (a string the parser checked ends
    // within the instruction), interface.
    if (instruction.num_operands < 3)
      break;
    const spv_parsed_operand_t &name = instruction.operands[2];
    const char *text =
        reinterpret_cast<const char *>(instruction.words + name.offset);
    reflection.entryFunctions[getOperandWord(instruction, 1)] =
        std::string(text, strnlen(text, name.num_words * sizeof(uint32_t)));
    break;
  }
  case spv::Op::OpDecorate:
    if (instruction.num_operands > 2 &&
        getOperandWord(instruction, 1) ==
            static_cast<uint32_t>(spv::Decoration::Binding))
      reflection.bindings[getOperandWord(instruction, 0)] =
          getOperandWord(instruction, 2);
    break;
  case spv::Op::OpFunction:
    reflection.function = instruction.result_id;
    break;
  case spv::Op::OpFunctionEnd:
    reflection.function = 0;
    break;
  case spv::Op::OpStore:
    reach(0); // Pointer.
    break;
  case spv::Op::OpCopyMemory:
    reach(0); // Target.
    reach(1); // Source.
    break;
  case spv::Op::OpLoad:
  case spv::Op::OpAccessChain:
  case spv::Op::OpInBoundsAccessChain:
  case spv::Op::OpPtrAccessChain:
  case spv::Op::OpArrayLength:
    reach(2); // Pointer, base or structure, after the result type and id.
    break;
  default:
    break;
  }
  return SPV_SUCCESS;
}

Status corogpu::runtime::readEntryPoints(
    const uint32_t *words, size_t wordCount,
    std::map<std::string, uint32_t> &entryPoints) {
  entryPoints.clear();
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_2);
  if (!context)
    return Status::failure("cannot create the SPIR-V parser");
  Reflection reflection;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result = spvBinaryParse(context, &reflection, words, wordCount,
                                       /*parsed_header=*/nullptr,
                                       reflectInstruction, &diagnostic);
  std::string why = diagnostic && diagnostic->error
                        ? diagnostic->error
                        : "the parser gave no reason";
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  if (result != SPV_SUCCESS)
    return Status::failure("cannot read the entry points of the SPIR-V "
                           "module: " +
                           why);
  for (const auto &[id, name] : reflection.entryFunctions) {
    uint32_t arguments = 0;
    for (uint32_t variable : reflection.reached[id])
      if (auto it = reflection.bindings.find(variable);
          it != reflection.bindings.end())
        arguments = std::max(arguments, it->second + 1);
    entryPoints[name] = arguments;
  }
  return Status::success();
}
