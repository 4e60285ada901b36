//===- SPIRVValidationTest.cpp - invalid SPIR-V never reaches a driver ----===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/SPIRVValidation.h"
#include "RuntimeTest.h"
#include "corogpu/runtime/Device.h"

#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

using namespace corogpu::runtime;
using namespace corogpu::runtime::test;

namespace {

/// A compute shader whose OpPhi names a block that does not branch to the
/// phi's block: the shape LLVM 22's SCF to SPIR-V conversion produced for a
/// loop inside an scf.while condition (issue 13).
constexpr const char *kPhiOfANonPredecessor = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
         %c0 = OpConstant %uint 0
         %c1 = OpConstant %uint 1
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpSelectionMerge %merge None
               OpBranchConditional %true %then %merge
       %then = OpLabel
               OpBranch %merge
      %merge = OpLabel
        %phi = OpPhi %uint %c0 %entry %c1 %other
               OpReturn
      %other = OpLabel
               OpReturn
               OpFunctionEnd
)";

/// The same shader, with the phi's second block right.
std::string getValidShader() {
  std::string text = kPhiOfANonPredecessor;
  text.replace(text.find("%c1 %other"), 10, "%c1 %then ");
  return text;
}

std::vector<uint32_t> assemble(const std::string &text) {
  std::string withTrue = text;
  // OpConstantTrue needs a bool type, declared next to the others.
  withTrue.replace(withTrue.find("         %c0"), 0,
                   "       %bool = OpTypeBool\n       %true = OpConstantTrue "
                   "%bool\n");
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::vector<uint32_t> binary;
  EXPECT_TRUE(tools.Assemble(withTrue, &binary)) << withTrue;
  return binary;
}

TEST(SPIRVValidationTest, AcceptsAValidModule) {
  std::vector<uint32_t> binary = assemble(getValidShader());
  Status status = validateSPIRV(binary.data(), binary.size());
  EXPECT_TRUE(status.ok()) << status.error;
}

TEST(SPIRVValidationTest, NamesWhatIsWrongWithAnInvalidModule) {
  std::vector<uint32_t> binary = assemble(kPhiOfANonPredecessor);
  Status status = validateSPIRV(binary.data(), binary.size());
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error.find("invalid SPIR-V module"), std::string::npos)
      << status.error;
  EXPECT_NE(status.error.find("is not a predecessor"), std::string::npos)
      << status.error;
  // The OpPhi is the module's 19th instruction (spirv-val's "line"),
  // counting the two that assemble() adds.
  EXPECT_NE(status.error.find("instruction 19:"), std::string::npos)
      << status.error;
}

TEST(SPIRVValidationTest, RejectsWordsThatAreNoModule) {
  std::vector<uint32_t> words = {0x12345678, 1, 2, 3, 4, 5};
  EXPECT_FALSE(validateSPIRV(words.data(), words.size()).ok());
}

TEST(SPIRVValidationTest, VulkanDeviceRefusesToLoadAnInvalidModule) {
  Status status;
  std::unique_ptr<Device> device = createValidatedVulkanDevice(status);
  if (!device)
    GTEST_SKIP() << "no usable Vulkan device: " << status.error;
  std::vector<uint32_t> invalid = assemble(kPhiOfANonPredecessor);
  status = device->loadModule(invalid.data(), invalid.size() * 4);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error.find("is not a predecessor"), std::string::npos)
      << status.error;
  // A valid module loads on the same device afterwards.
  std::vector<uint32_t> valid = assemble(getValidShader());
  status = device->loadModule(valid.data(), valid.size() * 4);
  EXPECT_TRUE(status.ok()) << status.error;
}

} // namespace
