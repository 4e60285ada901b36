// The control of check-bounds-divergent-while.mlir: the same program and
// data with one lane per workgroup, where lavapipe's Bug 1 cannot happen,
// has no access out of bounds (coro-run would exit with 6) and matches the
// mega-kernel. Run with more lanes, it is the XFAIL record.
// REQUIRES: lavapipe
// RUN: coro-run %S/check-bounds-divergent-while.mlir --coro=coro_fuzz_2002 --grid=2 --arg=592 --arg=-35.0 --buffer=i32:64:file=%S/Inputs/seed2002-table.bin --buffer=i32:12:zeros --buffer=i64:4:zeros --buffer=i32:8:iota --scheduler=wavefront --wavefront-workgroup-size=1 --check-bounds --check --quiet
