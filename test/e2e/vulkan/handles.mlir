// The paper's low-level interfaces (coro.handle.*) in coroutines run by
// every scheduler on lavapipe: a user-written state machine (Listing 4),
// resumption by tag and by token (Listing 3), and a two-kernel split over a
// buffer of frames, all giving what @steps gives under the built-in
// schedulers. The programs are test/e2e/programs/handles.mlir.
// REQUIRES: lavapipe

// RUN: coro-run %S/../programs/handles.mlir --coro=steps --grid=12 --arg=2.0 --buffer=f32:12:zeros --scheduler=state-machine | FileCheck %s --check-prefix=STEPS
// STEPS: buffer 0 (f32 x 12): [10, 22, 34, 46, 58, 20, 32, 44, 56, 68, 30, 42]

// Listing 4 under each scheduler (the handles are thread-private frames
// inside whatever kernel runs @listing4): subroutines run, promise "n" and
// the frame's instance id per instance.
// RUN: coro-run %S/../programs/handles.mlir --coro=listing4 --grid=12 --arg=2.0 --buffer=f32:12:zeros --buffer=i32:36:zeros --scheduler=megakernel --validate | FileCheck %s --check-prefixes=STEPS,LISTING4
// RUN: coro-run %S/../programs/handles.mlir --coro=listing4 --grid=12 --arg=2.0 --buffer=f32:12:zeros --buffer=i32:36:zeros --scheduler=state-machine --validate | FileCheck %s --check-prefixes=STEPS,LISTING4
// RUN: coro-run %S/../programs/handles.mlir --coro=listing4 --grid=12 --arg=2.0 --buffer=f32:12:zeros --buffer=i32:36:zeros --scheduler=wavefront --validate | FileCheck %s --check-prefixes=STEPS,LISTING4
// RUN: coro-run %S/../programs/handles.mlir --coro=listing4 --grid=12 --arg=2.0 --buffer=f32:12:zeros --buffer=i32:36:zeros --scheduler=persistent --validate | FileCheck %s --check-prefixes=STEPS,LISTING4
// LISTING4: buffer 1 (i32 x 36): [3, 1, 0, 4, 2, 1, 5, 3, 2, 6, 4, 3, 7, 5, 4, 3, 1, 5, 4, 2, 6, 5, 3, 7, 6, 4, 8, 7, 5, 9, 3, 1, 10, 4, 2, 11]

// By tag, then by token value: the token after the entry is that of "even"
// (1) or "odd" (2).
// RUN: coro-run %S/../programs/handles.mlir --coro=by_tag --grid=12 --arg=2.0 --buffer=f32:12:zeros --buffer=i32:12:zeros --scheduler=megakernel | FileCheck %s --check-prefixes=STEPS,TAG
// RUN: coro-run %S/../programs/handles.mlir --coro=by_tag --grid=12 --arg=2.0 --buffer=f32:12:zeros --buffer=i32:12:zeros --scheduler=wavefront | FileCheck %s --check-prefixes=STEPS,TAG
// TAG: buffer 1 (i32 x 12): [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2]

// A two-kernel split by hand: @entry_half runs the entry of every instance
// and stores the frames (5 words each: token, id, then the fields), the
// host keeps the buffer, @rest_half loads them and runs the instances to
// their end. SoA: the tokens (1 "even", 2 "odd") come first, then the ids.
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-run %S/../programs/handles.mlir --coro=entry_half --grid=12 --arg=12 --arg=2.0 --buffer=f32:12:zeros --buffer=i32:60:zeros --scheduler=state-machine --output-dir=%t/soa | FileCheck %s --check-prefix=SOA
// SOA: buffer 1 (i32 x 60): [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
// RUN: coro-run %S/../programs/handles.mlir --coro=rest_half --grid=12 --arg=12 --arg=2.0 --buffer=f32:12:file=%t/soa/buffer0.bin --buffer=i32:60:file=%t/soa/buffer1.bin --scheduler=wavefront | FileCheck %s --check-prefix=STEPS
// AoS: token and id of each frame side by side.
// RUN: coro-run %S/../programs/handles.mlir --coro=entry_half_aos --grid=12 --arg=12 --arg=2.0 --buffer=f32:12:zeros --buffer=i32:60:zeros --scheduler=megakernel --output-dir=%t/aos | FileCheck %s --check-prefix=AOS
// AOS: buffer 1 (i32 x 60): [1, 0, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, 2, 1,
// RUN: coro-run %S/../programs/handles.mlir --coro=rest_half_aos --grid=12 --arg=12 --arg=2.0 --buffer=f32:12:file=%t/aos/buffer0.bin --buffer=i32:60:file=%t/aos/buffer1.bin --scheduler=persistent | FileCheck %s --check-prefix=STEPS
// Without the first kernel the frames are new (token 0, instance 0): every
// instance is instance 0, which is not what @steps writes.
// RUN: coro-run %S/../programs/handles.mlir --coro=rest_half --grid=12 --arg=12 --arg=2.0 --buffer=f32:12:zeros --buffer=i32:60:zeros --scheduler=state-machine | FileCheck %s --check-prefix=FRESH
// FRESH: buffer 0 (f32 x 12): [10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]

// A generator consumed through a handle, with an early exit (the values
// computed independently: test/e2e/programs/generator-consumer.mlir says
// how; a generator cut short by the break never writes its count).
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_squares --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=megakernel --validate | FileCheck %s --check-prefix=GEN
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_squares --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=state-machine --validate | FileCheck %s --check-prefix=GEN
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_squares --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=wavefront --validate | FileCheck %s --check-prefix=GEN
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_squares --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=persistent --validate | FileCheck %s --check-prefix=GEN
// GEN: buffer 0 (i32 x 12): [3, 4, 5, 6, 0, 0, 0, 3, 4, 5, 6, 0]
// GEN-NEXT: buffer 1 (i32 x 24): [5, 3, 14, 4, 30, 5, 55, 6, 55, 6, 55, 6, 55, 6, 5, 3, 14, 4, 30, 5, 55, 6, 55, 6]

// The driver writes a buffer between two resumptions: the value loaded
// before the suspension is the one used after it.
// RUN: coro-run %S/../programs/handles.mlir --coro=rewrite_between --grid=6 --buffer=i32:6:iota --buffer=i32:6:zeros --scheduler=state-machine | FileCheck %s --check-prefix=BETWEEN
// RUN: coro-run %S/../programs/handles.mlir --coro=rewrite_between --grid=6 --buffer=i32:6:iota --buffer=i32:6:zeros --scheduler=megakernel | FileCheck %s --check-prefix=BETWEEN
// BETWEEN: buffer 0 (i32 x 6): [999, 999, 999, 999, 999, 999]
// BETWEEN-NEXT: buffer 1 (i32 x 6): [0, 1, 2, 3, 4, 5]
// The same consumer in a coroutine that suspends in its loop: the
// generator's frame crosses the suspensions in the consumer's frame.
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_suspending --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=state-machine --validate | FileCheck %s --check-prefix=GEN
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_suspending --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=wavefront --validate | FileCheck %s --check-prefix=GEN
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_suspending --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=persistent --validate | FileCheck %s --check-prefix=GEN
// The range-for of Listing 1 (coro.for_each), in a kernel and with a
// suspension in its body:
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_for_each --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=megakernel --validate | FileCheck %s --check-prefix=GEN
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_for_each --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=state-machine --validate | FileCheck %s --check-prefix=GEN
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_for_each_suspending --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=wavefront --validate | FileCheck %s --check-prefix=GEN
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_for_each_suspending --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=persistent --validate | FileCheck %s --check-prefix=GEN
// A generator that never yields: the body never runs.
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_never --grid=3 --arg=4 --buffer=i32:3:zeros --scheduler=state-machine | FileCheck %s --check-prefix=NEVER
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_never --grid=3 --arg=4 --buffer=i32:3:zeros --scheduler=megakernel | FileCheck %s --check-prefix=NEVER
// NEVER: buffer 0 (i32 x 3): [7, 7, 7]
// Nested loops over generators (the inner one over another instance's
// generator), with a suspension in the inner body:
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=nested_sums --grid=6 --arg=3 --buffer=i32:7:zeros --buffer=i32:6:zeros --scheduler=megakernel --validate | FileCheck %s --check-prefix=NESTED
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=nested_sums --grid=6 --arg=3 --buffer=i32:7:zeros --buffer=i32:6:zeros --scheduler=state-machine --validate | FileCheck %s --check-prefix=NESTED
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=nested_sums --grid=6 --arg=3 --buffer=i32:7:zeros --buffer=i32:6:zeros --scheduler=wavefront --validate | FileCheck %s --check-prefix=NESTED
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=nested_sums --grid=6 --arg=3 --buffer=i32:7:zeros --buffer=i32:6:zeros --scheduler=persistent --validate | FileCheck %s --check-prefix=NESTED
// NESTED: buffer 1 (i32 x 6): [70, 420, 1650, 5005, 12740, 28560]
// Nested generators: a generator over a generator, which yields inside its
// own loop over the inner one, consumed with a suspension in the body and an
// early exit:
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_even --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=megakernel --validate | FileCheck %s --check-prefix=EVEN
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_even --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=state-machine --validate | FileCheck %s --check-prefix=EVEN
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_even --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=wavefront --validate | FileCheck %s --check-prefix=EVEN
// RUN: coro-run %S/../programs/generator-consumer.mlir --coro=sum_even --grid=12 --arg=3 --arg=50 --buffer=i32:12:zeros --buffer=i32:24:zeros --scheduler=persistent --validate | FileCheck %s --check-prefix=EVEN
// EVEN: buffer 0 (i32 x 12): [3, 4, 5, 6, 0, 0, 0, 3, 4, 5, 6, 0]
// EVEN-NEXT: buffer 1 (i32 x 24): [4, 2, 4, 2, 20, 3, 20, 3, 56, 4, 56, 4, 56, 4, 4, 2, 4, 2, 20, 3, 20, 3, 56, 4]
