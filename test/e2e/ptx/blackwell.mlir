// The Blackwell chips get the PTX version they need (8.6 for sm_100, 8.7
// for sm_120, 8.8 for the family-specific sm_100f and for sm_103): LLVM
// aborted on them when every chip got PTX 8.0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-run %coro_src/test/e2e/programs/many-suspends.mlir --coro=many_suspends --grid=100 --arg=5 --buffer=i32:200:iota --scheduler=wavefront --emit=ptx --chip=sm_100 --emit-to=%t/sm_100.ptx
// RUN: coro-run %coro_src/test/e2e/programs/many-suspends.mlir --coro=many_suspends --grid=100 --arg=5 --buffer=i32:200:iota --scheduler=persistent --emit=ptx --chip=sm_120 --emit-to=%t/sm_120.ptx
// RUN: coro-run %coro_src/test/e2e/programs/many-suspends.mlir --coro=many_suspends --grid=100 --arg=5 --buffer=i32:200:iota --scheduler=state-machine --emit=ptx --chip=sm_100f --emit-to=%t/sm_100f.ptx
// RUN: coro-run %coro_src/test/e2e/programs/many-suspends.mlir --coro=many_suspends --grid=100 --arg=5 --buffer=i32:200:iota --scheduler=megakernel --emit=ptx --chip=sm_103 --emit-to=%t/sm_103.ptx
// RUN: FileCheck %s --check-prefix=SM100 < %t/sm_100.ptx
// RUN: FileCheck %s --check-prefix=SM120 < %t/sm_120.ptx
// RUN: FileCheck %s --check-prefix=SM100F < %t/sm_100f.ptx
// RUN: FileCheck %s --check-prefix=SM103 < %t/sm_103.ptx
// SM100: .version 8.6
// SM100: .target sm_100
// SM120: .version 8.7
// SM120: .target sm_120
// SM100F: .version 8.8
// SM100F: .target sm_100f
// SM103: .version 8.8
// SM103: .target sm_103
