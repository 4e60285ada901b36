// What gpu.printf becomes in a Vulkan kernel: NonSemantic.DebugPrintf
// instructions with OpString formats, as glslang emits for GLSL's
// debugPrintfEXT, and no trace of the marker functions of
// coro-spirv-debug-printf; spirv-val accepts the module.
// REQUIRES: spirv-val, spirv-dis
// RUN: coro-run %S/../vulkan/printf.mlir --coro=prints --scheduler=wavefront --emit=spirv --emit-to=%t.spv
// RUN: spirv-val --target-env vulkan1.2 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// CHECK:     OpExtension "SPV_KHR_non_semantic_info"
// CHECK:     %[[SET:.*]] = OpExtInstImport "NonSemantic.DebugPrintf"
// CHECK-DAG: %[[START:.*]] = OpString "[#%u @entry] instance %d starts
// CHECK-DAG: %[[LOOP:.*]] = OpString "[#%u @shade] instance %d resumed with %d, loop %d
// CHECK-NOT: __coro_debug_printf
// CHECK:     OpExtInst %void %[[SET]] 1 %[[START]] %{{.*}} %{{.*}}
// CHECK:     OpExtInst %void %[[SET]] 1 %[[LOOP]] %{{.*}} %{{.*}} %{{.*}} %{{.*}}
// CHECK-NOT: OpFunctionCall
