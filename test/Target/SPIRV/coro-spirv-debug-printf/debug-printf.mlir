// RUN: coro-opt %s --pass-pipeline="builtin.module(gpu.module(coro-spirv-debug-printf))" | FileCheck %s

// Each print calls a marker function of its own that holds the format;
// the arguments become types DebugPrintf prints (index: i32, i16: i32, f16
// and f64: f32, i64 as it is), and a double's %lf a float's %f.
// CHECK-LABEL: gpu.module @kernels
// CHECK-DAG:     spirv.func @__coro_debug_printf_0(%{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i64) "None" attributes {coro.debug_printf = "[#%u] %f %lu\0A"} {
// CHECK-DAG:     spirv.func @__coro_debug_printf_1(%{{.*}}: i32, %{{.*}}: f32, %{{.*}}: f32) "None" attributes {coro.debug_printf = "%d %5.2f %f 100%%\0A"} {
// CHECK-LABEL: gpu.func @k(
// CHECK:         %[[ID:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:         spirv.FunctionCall @__coro_debug_printf_0(%[[ID]], %{{.*}}, %{{.*}}) : (i32, f32, i64) -> ()
// CHECK:         %[[S:.*]] = arith.extsi %{{.*}} : i16 to i32
// CHECK:         %[[H:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:         %[[D:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK:         spirv.FunctionCall @__coro_debug_printf_1(%[[S]], %[[H]], %[[D]]) : (i32, f32, f32) -> ()
// CHECK-NOT:     gpu.printf
gpu.module @kernels {
  gpu.func @k(%i: index, %f: f32, %l: i64, %s: i16, %h: f16, %d: f64) kernel {
    gpu.printf "[#%u] %f %lu\n", %i, %f, %l : index, f32, i64
    gpu.printf "%d %5.2f %lf 100%%\n", %s, %h, %d : i16, f16, f64
    gpu.return
  }
}
