// RUN: coro-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(gpu.module(coro-spirv-debug-printf))"

// DebugPrintf has no wider integers: a located error, not a bad shader.
gpu.module @kernels {
  gpu.func @wide(%v: i128) kernel {
    // expected-error @below {{'gpu.printf' op cannot print an argument of type 'i128' on Vulkan: NonSemantic.DebugPrintf takes 32- and 64-bit integers and floats}}
    gpu.printf "%d\n", %v : i128
    gpu.return
  }
}

// -----

// The layer reads a 64-bit integer only with %lu or %lx; %ld would print
// one word of it and every later argument from the wrong place.
gpu.module @kernels {
  gpu.func @signed64(%v: i64, %f: f32) kernel {
    // expected-error @below {{'gpu.printf' op cannot print on Vulkan as written: argument #0 is a 64-bit integer: print it with %lu or %lx (the validation layer's DebugPrintf reads no other 64-bit conversion; cast it to i32 for %d)}}
    gpu.printf "%ld %f\n", %v, %f : i64, f32
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @count(%v: i32) kernel {
    // expected-error @below {{'gpu.printf' op cannot print on Vulkan as written: its format has 2 conversion(s) for 1 argument(s)}}
    gpu.printf "%d and %d (%%)\n", %v : i32
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @narrow(%v: i32) kernel {
    // expected-error @below {{'gpu.printf' op cannot print on Vulkan as written: argument #0 is not a 64-bit integer, but its conversion is %lu}}
    gpu.printf "%lu\n", %v : i32
    gpu.return
  }
}
