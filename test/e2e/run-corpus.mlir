// run-corpus.py fails loudly: a failing entry is printed as FAIL with
// coro-run's output and makes it exit 1; a manifest that is missing, empty
// or names a missing file makes it exit 2; so does too small a corpus
// (--min) exit 1. (No device is needed: the bad entry fails on its buffer
// spec before coro-run opens one.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo 'test/e2e/cpu/loop-break.mlir --coro=partial_sums --grid=6 --arg=4 --buffer=f64:6:zeros  # wrong element type' > %t/bad.txt
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --manifest %t/bad.txt > %t/bad.out 2>&1; echo "exit code $?" >> %t/bad.out
// RUN: FileCheck %s --check-prefix=BAD < %t/bad.out
// BAD: FAIL test/e2e/cpu/loop-break.mlir partial_sums (exit code 2): --coro=partial_sums --grid=6 --arg=4 --buffer=f64:6:zeros
// BAD-NEXT: | coro-run: error: buffer 'f64:6:zeros' has elements of type f64, but argument #1 is a memref of f32
// BAD-NEXT: corpus: 0 passed, 1 failed
// BAD-NEXT: exit code 1

// RUN: echo '# only a comment' > %t/empty.txt
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --manifest %t/empty.txt > %t/empty.out 2>&1; echo "exit code $?" >> %t/empty.out
// RUN: FileCheck %s --check-prefix=EMPTY < %t/empty.out
// EMPTY: run-corpus: error: the manifest {{.*}}empty.txt lists no coroutine
// EMPTY-NEXT: exit code 2

// RUN: echo 'test/e2e/programs/no-such-program.mlir --coro=nothing' > %t/missing.txt
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --manifest %t/missing.txt > %t/missing.out 2>&1; echo "exit code $?" >> %t/missing.out
// RUN: FileCheck %s --check-prefix=MISSING < %t/missing.out
// MISSING: run-corpus: error: {{.*}}missing.txt:1: no such file test/e2e/programs/no-such-program.mlir
// MISSING-NEXT: exit code 2

// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --manifest %t/no-manifest.txt > %t/none.out 2>&1; echo "exit code $?" >> %t/none.out
// RUN: FileCheck %s --check-prefix=NONE < %t/none.out
// NONE: run-corpus: error: no manifest {{.*}}no-manifest.txt
// NONE-NEXT: exit code 2

// The real manifest, filtered down to nothing, is fewer than --min entries:
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --filter no-entry-has-this --min 20 > %t/min.out 2>&1; echo "exit code $?" >> %t/min.out
// RUN: FileCheck %s --check-prefix=MIN < %t/min.out
// MIN: corpus: 0 passed, 0 failed
// MIN-NEXT: run-corpus: error: 0 entries ran, fewer than --min 20
// MIN-NEXT: exit code 1

// A command that outlasts --timeout is killed and its entry fails with exit
// code 124 (a kernel that never ends would otherwise stop the whole corpus);
// --times ends each line with the seconds the entry took.
// RUN: echo 'test/e2e/cpu/loop-break.mlir --coro=partial_sums --grid=6' > %t/one.txt
// RUN: printf '#!/bin/sh\nsleep 30\n' > %t/hangs && chmod +x %t/hangs
// RUN: printf '#!/bin/sh\nexit 0\n' > %t/passes && chmod +x %t/passes
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run %t/hangs --manifest %t/one.txt --timeout 0.5 --times > %t/slow.out 2>&1; echo "exit code $?" >> %t/slow.out
// RUN: FileCheck %s --check-prefix=SLOW < %t/slow.out
// SLOW: FAIL test/e2e/cpu/loop-break.mlir partial_sums (exit code 124): --coro=partial_sums --grid=6 ({{[0-9]+\.[0-9]+}} s)
// SLOW-NEXT: | run-corpus: timed out after 0.5 s: {{.*}}hangs {{.*}}loop-break.mlir --coro=partial_sums --grid=6 --check --quiet
// SLOW-NEXT: corpus: 0 passed, 1 failed
// SLOW-NEXT: exit code 1
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run %t/passes --manifest %t/one.txt --times | FileCheck %s --check-prefix=TIMES
// TIMES: PASS test/e2e/cpu/loop-break.mlir partial_sums ({{[0-9]+\.[0-9]+}} s)
// TIMES-NEXT: corpus: 1 passed, 0 failed
