// Printing from a kernel (gpu.printf) under every scheduler: each line says
// which instance printed it and the suspension point it resumed at
// (coro-prefix-printf); on Vulkan the prints are NonSemantic.DebugPrintf
// instructions that the Khronos validation layer runs (coro-run --printf).
// The order of the lines is the scheduler's, so they are sorted.
// REQUIRES: vulkan
// RUN: for scheduler in state-machine wavefront persistent; do \
// RUN:   coro-run %s --coro=prints --grid=3 --arg=10 --buffer=i32:3:zeros --scheduler=$scheduler --printf --check --quiet > %t.$scheduler.out || exit 1; \
// RUN:   grep -v '^check:' %t.$scheduler.out | sort | FileCheck %s --check-prefix=SPLIT || exit 1; \
// RUN:   grep -q '^check: .* matches the mega-kernel reference' %t.$scheduler.out || exit 1; \
// RUN: done
// SPLIT:      [#0 @entry] instance 0 starts
// SPLIT-NEXT: [#0 @shade] instance 0 resumed with 10, loop 0
// SPLIT-NEXT: [#0 @shade] instance 0 resumed with 10, loop 1
// SPLIT-NEXT: [#0 @shade] instance 0 resumed with 10, loop 2
// SPLIT-NEXT: [#1 @entry] instance 1 starts
// SPLIT-NEXT: [#1 @shade] instance 1 resumed with 11, loop 0
// SPLIT-NEXT: [#1 @shade] instance 1 resumed with 11, loop 1
// SPLIT-NEXT: [#1 @shade] instance 1 resumed with 11, loop 2
// SPLIT-NEXT: [#2 @entry] instance 2 starts
// SPLIT-NEXT: [#2 @shade] instance 2 resumed with 12, loop 0
// SPLIT-NEXT: [#2 @shade] instance 2 resumed with 12, loop 1
// SPLIT-NEXT: [#2 @shade] instance 2 resumed with 12, loop 2
// SPLIT-NOT:  {{.}}
// The mega-kernel reference of --check prints nothing of its own:
// RUN: coro-run %s --coro=prints --grid=3 --arg=10 --buffer=i32:3:zeros --scheduler=megakernel --printf --quiet | sort | FileCheck %s --check-prefix=MEGA
// MEGA:      [#0] instance 0 resumed with 10, loop 0
// MEGA:      [#0] instance 0 starts
// MEGA:      [#2] instance 2 starts
// MEGA-NOT:  @
// Floats, 64-bit integers and halves print too:
// RUN: coro-run %s --coro=kinds --grid=1 --buffer=f32:1:zeros --printf --quiet | FileCheck %s --check-prefix=KINDS
// KINDS: [#0 @entry] f32 2.500000 i64 5000000000 f16 0.500000
// A grid prints far more than the layer's default 1 KiB buffer: coro-run
// gives it 16 MiB (4 lines per instance here, none lost), and says so when
// even that is not enough instead of losing lines silently:
// RUN: coro-run %s --coro=prints --grid=2000 --arg=10 --buffer=i32:2000:zeros --scheduler=wavefront --printf --quiet | grep -c '^\[#' | FileCheck %s --check-prefix=MANY
// MANY: {{^8000$}}
// (A user's own settings file for the layer wins; with a 1 KiB buffer
// lines are lost, which is an error:)
// RUN: mkdir -p %t.settings && echo 'khronos_validation.printf_buffer_size = 1024' > %t.settings/vk_layer_settings.txt
// RUN: env VK_LAYER_SETTINGS_PATH=%t.settings not coro-run %s --coro=prints --grid=100 --arg=10 --buffer=i32:100:zeros --printf --quiet 2>&1 >/dev/null | FileCheck %s --check-prefix=LOST
// LOST: coro-run: error: state-machine: the kernels printed more than the validation layer's printf buffer holds {{.*}}: lines were lost; print from fewer instances or fewer times
// With --json the prints go to stderr, and stdout stays one JSON object:
// RUN: coro-run %s --coro=prints --grid=3 --arg=10 --buffer=i32:3:zeros --printf --json 2>%t.prints | %python -c "import json, sys; print(json.load(sys.stdin)['scheduler'])" | FileCheck %s --check-prefix=JSON
// RUN: FileCheck %s --check-prefix=JSON-PRINTS < %t.prints
// JSON: state-machine
// JSON-PRINTS: [#0 @entry] instance 0 starts
// --tune runs configurations whose prints would repeat: refused.
// RUN: not coro-run %s --coro=prints --grid=3 --arg=10 --buffer=i32:3:zeros --printf --tune 2>&1 | FileCheck %s --check-prefix=TUNE
// TUNE: coro-run: error: --printf cannot be combined with --tune
// Without --printf the kernel runs as it would, and coro-run says how to see
// the prints:
// RUN: coro-run %s --coro=prints --grid=3 --arg=10 --buffer=i32:3:zeros --scheduler=wavefront 2>&1 | FileCheck %s --check-prefix=HINT
// HINT: coro-run: warning: @prints prints (gpu.printf); add --printf to see it (through the Khronos validation layer)
// HINT-NOT: instance
// HINT: buffer 0 (i32 x 3): [40, 44, 48]

coro.func @prints(%base: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %i = arith.index_cast %id : index to i32
  gpu.printf "instance %d starts\n", %i : i32
  %v = arith.addi %base, %i : i32
  coro.suspend "shade"
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %v) -> (i32) {
    gpu.printf "instance %d resumed with %d, loop %d\n", %i, %v, %k : i32, i32, index
    %next = arith.addi %acc, %v : i32
    scf.yield %next : i32
  }
  memref.store %sum, %out[%id] : memref<?xi32>
  coro.return
}

coro.func @kinds(%out: memref<?xf32>) {
  %f = arith.constant 2.5 : f32
  %l = arith.constant 5000000000 : i64
  %h = arith.constant 0.5 : f16
  gpu.printf "f32 %f i64 %lu f16 %f\n", %f, %l, %h : f32, i64, f16
  %c0 = arith.constant 0 : index
  memref.store %f, %out[%c0] : memref<?xf32>
  coro.return
}
