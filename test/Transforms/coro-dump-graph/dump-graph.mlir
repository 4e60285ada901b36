// RUN: rm -rf %t && coro-opt %s --coro-split --coro-dump-graph=output-dir=%t | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=DOT < %t/if_else.dot
// RUN: FileCheck %s --check-prefix=JSON < %t/if_else.json
// RUN: not coro-opt %s --coro-split --coro-dump-graph 2>&1 | FileCheck %s --check-prefix=NODIR

// The IR is not modified.
// IR: coro.split @if_else

// DOT: digraph "if_else" {
// DOT-NEXT: label="@if_else: 9 ops -> 16 ops in 3 subroutines, 1 frame fields in 12 bytes, ops_recomputed 1, values_live 1, values_recomputed 0, values_stored 1";
// DOT: t0 [label="entry\ntoken 0, 9 ops"];
// DOT-NEXT: t1 [label="then\ntoken 1, 5 ops"];
// DOT-NEXT: t2 [label="else\ntoken 2, 2 ops"];
// DOT: t0 -> t1;
// DOT-NEXT: t0 -> t2;
// DOT-NEXT: t1 -> returned;
// DOT-NEXT: t2 -> returned;

// JSON: "coroutine": "if_else",
// JSON: "frame_bytes": 12,
// JSON-NEXT: "frame_fields": [
// JSON-NEXT: "v0 : f32"
// JSON: "growth": "1.78",
// JSON-NEXT: "original_ops": 9,
// JSON-NEXT: "split_statistics": {
// JSON-NEXT:   "ops_recomputed": 1,
// JSON-NEXT:   "values_live": 1,
// JSON-NEXT:   "values_recomputed": 0,
// JSON-NEXT:   "values_stored": 1
// JSON-NEXT: },
// JSON-NEXT: "subroutine_ops": 16,
// JSON: "name": "then",
// JSON-NEXT: "ops": 5,
// JSON-NEXT: "symbol": "if_else__then",
// JSON-NEXT: "token": 1

// NODIR: error: coro-dump-graph: set output-dir=<directory>
coro.func @if_else(%c: i1, %x: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  %y = memref.load %out[%id] : memref<?xf32>
  scf.if %c {
    coro.suspend "then"
    memref.store %y, %out[%id] : memref<?xf32>
  } else {
    coro.suspend "else"
  }
  coro.return
}
