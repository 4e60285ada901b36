// RUN: coro-opt %s --split-input-file --verify-diagnostics --coro-host-launches-to-gpu
// RUN: not coro-opt %s --split-input-file --coro-host-launches-to-gpu=scheduler=fast 2>&1 | FileCheck %s --check-prefix=SCHEDULER
// RUN: not coro-opt %s --split-input-file --coro-host-launches-to-gpu=target=gfx90a 2>&1 | FileCheck %s --check-prefix=TARGET
// SCHEDULER: for the --scheduler option: Cannot find option named 'fast'!
// RUN: not coro-opt %s --split-input-file "--coro-host-launches-to-gpu=scheduler-options='layout=diagonal'" 2>&1 | FileCheck %s --check-prefix=OPTIONS
// OPTIONS: for the --layout option: Cannot find option named 'diagonal'!
// OPTIONS: error: coro-host-launches-to-gpu: scheduler-options='layout=diagonal' is not a list of the schedulers' options (see coro-to-spirv's in --help)
// RUN: not coro-opt %s --split-input-file "--coro-host-launches-to-gpu=scheduler-options='persistent-batch=0'" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: coro-host-launches-to-gpu: scheduler-options: persistent-batch must be in [1, 2^20], got 0
// TARGET: for the --target option: 'gfx90a' is not a kernel target: spirv (Vulkan) or an NVIDIA chip (sm_90, PTX for CUDA)
// RUN: not coro-opt %s --split-input-file --coro-host-launches-to-gpu=target=sm_5 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: coro-host-launches-to-gpu: target sm_5 is not an NVIDIA chip NVVM compiles for

coro.func @f(%out: memref<?xf32>) {
  coro.return
}
func.func @main(%out: memref<?xf32>, %n: index) {
  // expected-error @+1 {{'coro.launch' op has scheduler "fast"; use "megakernel", "state-machine", "wavefront" or "persistent"}}
  coro.launch @f[%n](%out) {scheduler = "fast"} : (memref<?xf32>) -> ()
  return
}

// -----

// SPIR-V fixes a kernel's workgroup size: a kernel of a host program says it.
module attributes {gpu.container_module} {
  gpu.module @ext {
    // expected-error @+1 {{kernel @fill of a host program needs its workgroup size: add known_block_size = array<i32: X, Y, Z> (the kernels of SPIR-V targets fix it)}}
    gpu.func @fill(%data: memref<?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A coroutine that does not compile: the error of the pipeline, then the
// launch that asked for it.
coro.func @g(%out: memref<?xf32>) {
  %id = coro.id : index
  // expected-error @+1 {{calls @external, a declaration without a body}}
  func.call @external() : () -> ()
  coro.return
}
func.func private @external()
func.func @main(%out: memref<?xf32>, %n: index) {
  // expected-error @+1 {{compiling @g under the megakernel scheduler failed (see above)}}
  coro.launch @g[%n](%out) : (memref<?xf32>) -> ()
  return
}

// -----

// Memrefs whose elements host and kernels lay out differently, or of more
// than one dynamic dimension, cannot cross.
coro.func @h(%a: memref<?xbf16>, %b: memref<?x?xf32>) {
  coro.return
}
func.func @main(%a: memref<?xbf16>, %b: memref<?x?xf32>, %n: index) {
  // expected-error @+2 {{argument #0: memref<?xbf16> holds elements of bf16, which host and kernels lay out differently; pass i1, integers of 8 to 64 bits, f16, f32 or f64 (keep bf16 values as i16: arith.bitcast)}}
  // expected-error @+1 {{argument #1: memref<?x?xf32> has more than one dimension and a dynamic shape; pass it flattened, as memref<?xf32>}}
  coro.launch @h[%n](%a, %b) : (memref<?xbf16>, memref<?x?xf32>) -> ()
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @ext {
    // expected-error @+1 {{argument #0: memref<?xvector<4xf32>> holds elements of vector<4xf32>, which host and kernels lay out differently}}
    gpu.func @k(%a: memref<?xvector<4xf32>>) kernel
        attributes {known_block_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// Frames kept by host code need a layout, which only the coroutines that
// device code drives get.
coro.func @alone(%out: memref<?xf32>) {
  coro.suspend "s"
  coro.return
}
coro.func @g(%out: memref<?xf32>) {
  coro.return
}
func.func @main(%out: memref<?xf32>, %n: index) {
  // expected-error @+1 {{the frames of @alone have no layout: no coroutine of this program drives them with coro.handle ops}}
  %words = coro.handle.frame_words @alone : index
  coro.launch @g[%n](%out) : (memref<?xf32>) -> ()
  return
}

// -----

// Device code cannot call host code: kernels do not launch.
func.func @mixed(%x: f32, %data: memref<?xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  coro.launch @g[%c1](%data) : (memref<?xf32>) -> ()
  return %x : f32
}
coro.func @g(%data: memref<?xf32>) {
  %id = coro.id : index
  %x = memref.load %data[%id] : memref<?xf32>
  // expected-error @+1 {{device code calls @mixed, which is host code (it launches, or calls what does): kernels cannot launch}}
  %y = func.call @mixed(%x, %data) : (f32, memref<?xf32>) -> f32
  memref.store %y, %data[%id] : memref<?xf32>
  coro.return
}

// -----

// Host code only sizes frames; the device drives them.
coro.func @keep(%data: memref<?xf32>) {
  coro.suspend "s"
  coro.return
}
coro.func @g(%data: memref<?xf32>) {
  coro.return
}
func.func @main(%data: memref<?xf32>, %frames: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'coro.handle.load' op drives frames in host code, whose memory the device does not see; drive them from a coroutine the host launches (only coro.handle.frame_words, to size a buffer of frames, is host code)}}
  %h = coro.handle.load @keep %frames[%c1] of %c1 : memref<?xi32> -> !coro.handle<@keep>
  coro.launch @g[%c1](%data) : (memref<?xf32>) -> ()
  return
}
