// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#version 450
// Driver-only reproducer of a lavapipe bug (see README.md): on an x86 CPU
// with AVX-512, lavapipe's LLVM 15 miscompiles a bit insert assigned under
// a condition, `if (c) x = (x & ~1u) | (v & 1u)`. It makes one masked
// VPTERNLOGD of it, with the constant as a broadcast memory operand, and
// the truth table it emits is that of the wrong operand order (0xb8, where
// 0xe4 is right): the result is ((x | v) & ~1u) | (x & ~v & 1u).
// Right at local size 1, where c and v are uniform and no masked form is
// needed, and with GALLIUM_OVERRIDE_CPU_CAPS=avx (no AVX-512).
//
// Invocation i: x stays 81 (the loop runs once and never assigns it), so
// the insert runs and must give 80 | (i & 1).
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0, std430) readonly buffer N { uint n; }; // 1
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint o[]; };
void main() {
  uint id = gl_GlobalInvocationID.x;
  uint x = 81u;
  for (uint i = 0u; i < n; ++i) {
    if (i == 7u)
      x = 0u;
  }
  if (x == 81u)
    x = (x & ~1u) | (id & 1u);
  o[id] = x;
}
