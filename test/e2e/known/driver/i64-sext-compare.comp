// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#version 450
// Driver-only reproducer of a lavapipe bug (see README.md): a signed 64-bit
// comparison between a value sign-extended from 32 bits and a constant that
// fits in 32 bits always gives the same answer: <, <= are always false and
// >, >= always true (in both operand orders), whatever the value. == is
// right, and so is the comparison with a value loaded from memory, the
// unsigned one and one with a constant that does not fit in 32 bits. The
// workgroup size plays no part (local_size_x_id 0, set with
// coro-vk-run-compute --spec=0=N). glslang declares the types signed
// (OpTypeInt 64 1); CoroGPU's SPIR-V (OpTypeInt 64 0) behaves the same.
//
// Invocation i (0..7) compares v = int64(int(i) - 4), i.e. -4..3, and writes
// 1 or 0 into buffer k's element i.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0, std430) readonly buffer Limit { int64_t limit; }; // 1
layout(set = 0, binding = 1, std430) writeonly buffer B1 { int ltConst[]; };
layout(set = 0, binding = 2, std430) writeonly buffer B2 { int gtConst[]; };
layout(set = 0, binding = 3, std430) writeonly buffer B3 { int leConst[]; };
layout(set = 0, binding = 4, std430) writeonly buffer B4 { int geConst[]; };
layout(set = 0, binding = 5, std430) writeonly buffer B5 { int ltLoaded[]; };
layout(set = 0, binding = 6, std430) writeonly buffer B6 { int ultConst[]; };
layout(set = 0, binding = 7, std430) writeonly buffer B7 { int eqConst[]; };
layout(set = 0, binding = 8, std430) writeonly buffer B8 { int ltWide[]; };
void main() {
  uint id = gl_GlobalInvocationID.x;
  if (id >= 8u) return;
  int64_t v = int64_t(int(id) - 4); // OpSConvert of a 32-bit int
  // Wrong on lavapipe (OpSLessThan, OpSGreaterThan, OpSLessThanEqual,
  // OpSGreaterThanEqual against an OpConstant):
  ltConst[id] = v < 1l ? 1 : 0;
  gtConst[id] = v > 1l ? 1 : 0;
  leConst[id] = v <= -2l ? 1 : 0;
  geConst[id] = v >= -2l ? 1 : 0;
  // Right on lavapipe (the controls):
  ltLoaded[id] = v < limit ? 1 : 0;          // not a constant
  ultConst[id] = uint64_t(v) < 1ul ? 1 : 0;  // unsigned
  eqConst[id] = v == 1l ? 1 : 0;             // equality
  ltWide[id] = v < 0x100000000l ? 1 : 0;     // constant wider than 32 bits
}
