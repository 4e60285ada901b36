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
    // expected-error @below {{'gpu.printf' op cannot print on Vulkan as written: argument #0 is a 64-bit integer: print it with %lu or %lx (DebugPrintf reads no signed 64-bit conversion; cast it to i32 for %d)}}
    gpu.printf "%ld %f\n", %v, %f : i64, f32
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @count(%v: i32) kernel {
    // expected-error @below {{'gpu.printf' op cannot print on Vulkan as written: its format has more conversions than the 1 argument(s)}}
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

// -----

// The layer prints numbers only (a %s crashed it).
gpu.module @kernels {
  gpu.func @string(%v: i32) kernel {
    // expected-error @below {{'gpu.printf' op cannot print on Vulkan as written: conversion %s prints no number; DebugPrintf prints integers (d i o u x X) and floats (f F e E g G a A)}}
    gpu.printf "%s\n", %v : i32
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @float_as_int(%v: f32) kernel {
    // expected-error @below {{'gpu.printf' op cannot print on Vulkan as written: argument #0 is not an integer, but its conversion is %d}}
    gpu.printf "%d\n", %v : f32
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @star(%w: i32, %v: i32) kernel {
    // expected-error @below {{'gpu.printf' op cannot print on Vulkan as written: conversion %*d takes its width from an argument, which DebugPrintf cannot}}
    gpu.printf "%*d\n", %w, %v : i32, i32
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @nul(%v: i32) kernel {
    // expected-error @below {{'gpu.printf' op cannot print on Vulkan as written: its format contains a NUL character}}
    gpu.printf "a\00b %d\n", %v : i32
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @extra(%a: i32, %b: i32) kernel {
    // expected-error @below {{'gpu.printf' op cannot print on Vulkan as written: its format has 1 conversion(s) for 2 argument(s)}}
    gpu.printf "%d\n", %a, %b : i32, i32
    gpu.return
  }
}
