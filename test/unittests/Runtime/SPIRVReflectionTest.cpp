//===- SPIRVReflectionTest.cpp - the kernels and arguments of SPIR-V ------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// readEntryPoints, which the Vulkan backend trusts to refuse a launch of an
// unknown kernel or with too few arguments, on modules written by hand: a
// valid one with several entry points, and words that are no module.
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/SPIRVReflection.h"
#include "corogpu/runtime/SPIRVValidation.h"

#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

using namespace corogpu::runtime;

namespace {

/// Three kernels over storage buffers at bindings 0, 1, 4 and 6 of set 0:
/// `first` loads from binding 1 (through an access chain), `second` stores
/// to binding 4 and takes the length of binding 0, `none` uses no buffer.
/// Binding 6 is used by a helper function only, which no entry point's own
/// instructions use: it is not counted (the documented lower bound).
constexpr const char *kThreeKernels = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %first "first" %b
               OpEntryPoint GLCompute %second "second" %a %c %d
               OpEntryPoint GLCompute %none "none"
               OpExecutionMode %first LocalSize 1 1 1
               OpExecutionMode %second LocalSize 4 1 1
               OpExecutionMode %none LocalSize 1 1 1
               OpDecorate %array ArrayStride 4
               OpMemberDecorate %struct 0 Offset 0
               OpDecorate %struct Block
               OpDecorate %a DescriptorSet 0
               OpDecorate %a Binding 0
               OpDecorate %b DescriptorSet 0
               OpDecorate %b Binding 1
               OpDecorate %c DescriptorSet 0
               OpDecorate %c Binding 4
               OpDecorate %d DescriptorSet 0
               OpDecorate %d Binding 6
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %array = OpTypeRuntimeArray %uint
     %struct = OpTypeStruct %array
        %ptr = OpTypePointer StorageBuffer %struct
    %elemptr = OpTypePointer StorageBuffer %uint
         %c0 = OpConstant %uint 0
          %a = OpVariable %ptr StorageBuffer
          %b = OpVariable %ptr StorageBuffer
          %c = OpVariable %ptr StorageBuffer
          %d = OpVariable %ptr StorageBuffer
     %helper = OpFunction %void None %fn
         %l0 = OpLabel
         %p0 = OpAccessChain %elemptr %d %c0 %c0
               OpStore %p0 %c0
               OpReturn
               OpFunctionEnd
      %first = OpFunction %void None %fn
         %l1 = OpLabel
         %p1 = OpAccessChain %elemptr %b %c0 %c0
         %v1 = OpLoad %uint %p1
               OpReturn
               OpFunctionEnd
     %second = OpFunction %void None %fn
         %l2 = OpLabel
         %p2 = OpAccessChain %elemptr %c %c0 %c0
          %n = OpArrayLength %uint %a 0
               OpStore %p2 %n
         %r2 = OpFunctionCall %void %helper
               OpReturn
               OpFunctionEnd
       %none = OpFunction %void None %fn
         %l3 = OpLabel
               OpReturn
               OpFunctionEnd
)";

std::vector<uint32_t> assemble(const std::string &text) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::vector<uint32_t> binary;
  EXPECT_TRUE(tools.Assemble(text, &binary)) << text;
  return binary;
}

TEST(SPIRVReflectionTest, ReadsEveryEntryPointAndTheArgumentsItUses) {
  std::vector<uint32_t> binary = assemble(kThreeKernels);
  // A module the backend would load: it passes validation first.
  Status valid = validateSPIRV(binary.data(), binary.size());
  ASSERT_TRUE(valid.ok()) << valid.error;
  std::map<std::string, uint32_t> entryPoints;
  Status status = readEntryPoints(binary.data(), binary.size(), entryPoints);
  ASSERT_TRUE(status.ok()) << status.error;
  std::map<std::string, uint32_t> expected = {
      {"first", 2}, {"second", 5}, {"none", 0}};
  EXPECT_EQ(entryPoints, expected);
}

TEST(SPIRVReflectionTest, AModuleWithoutEntryPointsHasNone) {
  std::vector<uint32_t> binary = assemble(R"(
               OpCapability Shader
               OpCapability Linkage
               OpMemoryModel Logical GLSL450
)");
  std::map<std::string, uint32_t> entryPoints = {{"stale", 1}};
  Status status = readEntryPoints(binary.data(), binary.size(), entryPoints);
  ASSERT_TRUE(status.ok()) << status.error;
  EXPECT_TRUE(entryPoints.empty());
}

/// Words that are no module give an error (and no entry points), never a
/// crash or a read past the end.
void expectUnreadable(const std::vector<uint32_t> &words) {
  std::map<std::string, uint32_t> entryPoints = {{"stale", 1}};
  Status status = readEntryPoints(words.data(), words.size(), entryPoints);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error.find("cannot read the entry points of the SPIR-V "
                              "module: "),
            std::string::npos)
      << status.error;
  EXPECT_TRUE(entryPoints.empty());
}

TEST(SPIRVReflectionTest, NoWordsAreAnError) { expectUnreadable({}); }

TEST(SPIRVReflectionTest, AWrongMagicNumberIsAnError) {
  std::vector<uint32_t> binary = assemble(kThreeKernels);
  binary[0] = 0xdeadbeef;
  expectUnreadable(binary);
}

TEST(SPIRVReflectionTest, AnInstructionPastTheEndIsAnError) {
  std::vector<uint32_t> binary = assemble(kThreeKernels);
  // The last instruction, OpFunctionEnd (one word), claims five.
  binary.back() = (5u << 16) | (binary.back() & 0xffff);
  expectUnreadable(binary);
}

TEST(SPIRVReflectionTest, ATruncatedEntryPointIsAnError) {
  std::vector<uint32_t> binary = assemble(kThreeKernels);
  // The module cut inside the first OpEntryPoint, at word 5 of the header
  // plus the capability and the memory model (2 + 3 words) and two of it.
  binary.resize(5 + 2 + 3 + 2);
  expectUnreadable(binary);
}

} // namespace
