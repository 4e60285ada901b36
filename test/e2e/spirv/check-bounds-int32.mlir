// Kernels instrumented by --check-bounds use no 64-bit integers where the
// program does not (the index of a violation is split into two i32 words in
// `index`), so they run on devices without shaderInt64; they are valid
// Vulkan 1.2 SPIR-V under every scheduler.
// REQUIRES: spirv-val, spirv-dis
// RUN: coro-run %coro_src/test/e2e/programs/many-suspends.mlir --coro=many_suspends --grid=100 --arg=5 --buffer=i32:200:iota --check-bounds --scheduler=megakernel --emit=spirv --emit-to=%t.megakernel.spv
// RUN: coro-run %coro_src/test/e2e/programs/many-suspends.mlir --coro=many_suspends --grid=100 --arg=5 --buffer=i32:200:iota --check-bounds --scheduler=state-machine --emit=spirv --emit-to=%t.state-machine.spv
// RUN: coro-run %coro_src/test/e2e/programs/many-suspends.mlir --coro=many_suspends --grid=100 --arg=5 --buffer=i32:200:iota --check-bounds --scheduler=wavefront --emit=spirv --emit-to=%t.wavefront.spv
// RUN: coro-run %coro_src/test/e2e/programs/many-suspends.mlir --coro=many_suspends --grid=100 --arg=5 --buffer=i32:200:iota --check-bounds --scheduler=persistent --emit=spirv --emit-to=%t.persistent.spv
// RUN: for s in megakernel state-machine wavefront persistent; do spirv-val --target-env vulkan1.2 %t.$s.spv && spirv-dis %t.$s.spv | FileCheck %s --implicit-check-not="OpCapability Int64" --implicit-check-not="OpTypeInt 64"; done
// CHECK: OpCapability Shader
// CHECK: OpEntryPoint GLCompute
