// Frame swapping in the persistent-threads scheduler on Vulkan
// (--persistent-swap-frames): the e2e corpus runs under it in
// test/e2e/corpus (suites vulkan/persistent-swap-frames*).
// REQUIRES: vulkan

// early_returns over 100 instances, 4 threads and 16 slots per workgroup:
// 700 bytes of workgroup memory hold the frames of 8 slots beside the
// scheduler's and the swap's arrays; the instances that run with frames in
// the extension swap them in (the count depends only on the steps, which do
// not depend on timing: 55 in both layouts), and every buffer equals the
// mega-kernel's. The counts are those of the switch (--fall-through=false,
// every GPU's default); with fall-through (lavapipe's) steps and swaps are
// fewer, and the buffers the same.
// RUN: coro-run %coro_src/test/e2e/programs/early-returns.mlir --coro=early_returns --grid=100 --buffer=i32:100:zeros --scheduler=persistent --persistent-workgroup-size=4 --persistent-batch=16 --persistent-shared-memory=700 --persistent-swap-frames --persistent-steps=0 --fall-through=false --scheduler-stats --check --quiet | FileCheck %s --check-prefix=SWAP
// RUN: coro-run %coro_src/test/e2e/programs/early-returns.mlir --coro=early_returns --grid=100 --buffer=i32:100:zeros --scheduler=persistent --persistent-workgroup-size=4 --persistent-batch=16 --persistent-shared-memory=700 --persistent-swap-frames --persistent-steps=0 --fall-through=false --layout=aos --scheduler-stats --check --quiet | FileCheck %s --check-prefix=SWAP
// SWAP: persistent: 7 workgroups, 1 launch, 272 steps, 7 batches, global memory extension 1792 bytes, 55 frames swapped in
// SWAP: persistent: dispatch by switch
// SWAP: persistent: instances per subroutine: entry:100 row:258 cell:1228 heavy:47
// SWAP: check: persistent matches the mega-kernel reference

// RUN: coro-run %coro_src/test/e2e/programs/early-returns.mlir --coro=early_returns --grid=100 --buffer=i32:100:zeros --scheduler=persistent --persistent-workgroup-size=4 --persistent-batch=16 --persistent-shared-memory=700 --persistent-swap-frames --persistent-steps=0 --fall-through --scheduler-stats --check --quiet | FileCheck %s --check-prefix=FALL
// FALL: persistent: 7 workgroups, 1 launch, {{[0-9]+}} steps, 7 batches, global memory extension 1792 bytes, {{[1-9][0-9]*}} frames swapped in
// FALL: persistent: dispatch by fall-through
// FALL: persistent: instances per subroutine: entry:100 row:258 cell:1228 heavy:47
// FALL: check: persistent matches the mega-kernel reference

// Without the option the same frames stay where they started.
// RUN: coro-run %coro_src/test/e2e/programs/early-returns.mlir --coro=early_returns --grid=100 --buffer=i32:100:zeros --scheduler=persistent --persistent-steps=0 --persistent-workgroup-size=4 --persistent-batch=16 --persistent-shared-memory=700 --fall-through=false --scheduler-stats --check --quiet | FileCheck %s --check-prefix=FIXED
// FIXED: persistent: 7 workgroups, 1 launch, 272 steps, 7 batches, global memory extension {{[0-9]+}} bytes{{$}}
// FIXED: check: persistent matches the mega-kernel reference

// The JSON report counts the swaps too.
// RUN: coro-run %coro_src/test/e2e/programs/early-returns.mlir --coro=early_returns --grid=100 --buffer=i32:100:zeros --scheduler=persistent --persistent-workgroup-size=4 --persistent-batch=16 --persistent-shared-memory=700 --persistent-swap-frames --persistent-steps=0 --fall-through=false --json | FileCheck %s --check-prefix=JSON
// JSON: "dispatch": "switch"
// JSON: "swapped_frames": 55

// Another scheduler does not take the option.
// RUN: not coro-run %coro_src/test/e2e/programs/early-returns.mlir --coro=early_returns --grid=100 --buffer=i32:100:zeros --scheduler=megakernel --persistent-swap-frames 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: coro-run: error: --persistent-swap-frames is an option of the persistent-threads scheduler; --scheduler=megakernel does not use it
