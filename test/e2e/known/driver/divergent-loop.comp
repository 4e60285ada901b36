// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#version 450
// Driver-only reproducer of the lavapipe bug behind
// test/e2e/vulkan/divergent-while(-megakernel).mlir, in its smallest form (see
// README.md): a loop whose trip count differs between the invocations of a
// workgroup. No barriers, shared memory or subgroup operations, so no
// invocation's result may depend on the workgroup size (local_size_x_id 0,
// set with coro-vk-run-compute --spec=0=N).
//
// Invocation i: a = 1000 i, c = 7, trips = i % 4. The loop body runs `trips`
// times; the result is c + a of the last pass through the loop header:
// c + a for trips = 0, else 4 (a + trips). For i = 0..7:
//   [7, 4004, 8008, 12012, 4007, 20004, 24008, 28012]
// lavapipe (Mesa 22.3.6, LLVM 15.0.6) with local size 8 instead gives
//   [8, 4005, 8009, 12012, 4008, 20005, 24009, 28012]
// (c + (a + 1): the header's `a = n` reaches invocations that have already
// left the loop); with local size 1 it is right.
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0, std430) writeonly buffer Out { uint outp[]; };
void main() {
  uint id = gl_GlobalInvocationID.x;
  uint a = 1000u * id, c = 7u, trips = id % 4u;
  uint cn = 0u;
  uint r;
  for (;;) {
    uint s = c + a;
    uint n = a + 1u;
    r = s;
    if (cn >= trips) break;
    cn += 1u;
    a = n;
    c = 3u * a;
  }
  outp[id] = r;
}
