// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#version 450
// Hand-written GLSL of the coroutine in
// test/e2e/vulkan/divergent-while-megakernel.mlir (the scf.while, written as
// a loop whose exit test comes after the "before" region), with the same
// data: 8 invocations, table = iota(16), in = the test's 32 ints. Compiled by
// glslangValidator, CoroGPU plays no part. On lavapipe (Mesa 22.3.6, LLVM
// 15.0.6) it gives exactly the XFAIL record's 4 wrong values with a local
// size of 8 or 64, and the right ones with a local size of 1
// (local_size_x_id 0, set with coro-vk-run-compute --spec=0=N). See
// README.md.
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0, std430) readonly buffer Table { uint table[]; };
layout(set = 0, binding = 1, std430) readonly buffer In { uint inp[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Out { uint outp[]; };
void main() {
  uint id = gl_GlobalInvocationID.x;
  if (id >= 8u) return;
  uint base = id * 4u;
  uint a = inp[base], b = inp[base + 1u], c = inp[base + 2u];
  uint trips = inp[base + 3u]; // 1 to 4, differs between invocations
  bool again = true;
  uint cn = 0u;
  uint r0, r1, r2, r3;
  for (;;) {
    // The scf.while's "before" region, then its scf.condition.
    uint v52 = c + (c ^ a);
    uint v58 = a + table[a & 15u];
    uint v62 = v52 + table[v52 & 15u];
    r0 = cn; r1 = v58; r2 = b; r3 = v62;
    if (!again) break;
    // The "do" region.
    uint v69 = b + b * v62;
    cn += 1u;
    again = cn < trips;
    a = v58;
    b = 3u * v69;
    c = 3u * v62;
  }
  outp[base] = r0; outp[base + 1u] = r1; outp[base + 2u] = r2; outp[base + 3u] = r3;
}
