// Generators whose types once gave wrong values or invalid SPIR-V under
// every scheduler, the mega-kernel included (issue 42): the values are
// checked here, not against the mega-kernel. The programs and their
// values: test/e2e/programs/generator-types.mlir.
// REQUIRES: vulkan
// DEFINE: %{run} = coro-run %S/../programs/generator-types.mlir --validate
// RUN: %{run} --coro=vec_sum --grid=2 --arg=3 --buffer=i32:4:zeros --scheduler=megakernel | FileCheck %s --check-prefix=VEC
// RUN: %{run} --coro=vec_sum --grid=2 --arg=3 --buffer=i32:4:zeros --scheduler=state-machine | FileCheck %s --check-prefix=VEC
// RUN: %{run} --coro=vec_sum --grid=2 --arg=3 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=1 | FileCheck %s --check-prefix=VEC
// RUN: %{run} --coro=vec_sum --grid=2 --arg=3 --buffer=i32:4:zeros --scheduler=wavefront | FileCheck %s --check-prefix=VEC
// RUN: %{run} --coro=vec_sum --grid=2 --arg=3 --buffer=i32:4:zeros --scheduler=wavefront --layout=aos --capacity=3 | FileCheck %s --check-prefix=VEC
// RUN: %{run} --coro=vec_sum --grid=2 --arg=3 --buffer=i32:4:zeros --scheduler=persistent | FileCheck %s --check-prefix=VEC
// RUN: %{run} --coro=vec_sum --grid=2 --arg=3 --buffer=i32:4:zeros --scheduler=persistent --persistent-batch=8 --persistent-shared-memory=1024 | FileCheck %s --check-prefix=VEC
// RUN: %{run} --coro=flag_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=megakernel | FileCheck %s --check-prefix=FLAG
// RUN: %{run} --coro=flag_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=state-machine | FileCheck %s --check-prefix=FLAG
// RUN: %{run} --coro=flag_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=1 | FileCheck %s --check-prefix=FLAG
// RUN: %{run} --coro=flag_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=wavefront | FileCheck %s --check-prefix=FLAG
// RUN: %{run} --coro=flag_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=wavefront --layout=aos --capacity=3 | FileCheck %s --check-prefix=FLAG
// RUN: %{run} --coro=flag_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=persistent | FileCheck %s --check-prefix=FLAG
// RUN: %{run} --coro=flag_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=persistent --persistent-batch=8 --persistent-shared-memory=1024 | FileCheck %s --check-prefix=FLAG
// RUN: %{run} --coro=byte_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=megakernel | FileCheck %s --check-prefix=BYTE
// RUN: %{run} --coro=byte_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=state-machine | FileCheck %s --check-prefix=BYTE
// RUN: %{run} --coro=byte_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=1 | FileCheck %s --check-prefix=BYTE
// RUN: %{run} --coro=byte_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=wavefront | FileCheck %s --check-prefix=BYTE
// RUN: %{run} --coro=byte_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=wavefront --layout=aos --capacity=3 | FileCheck %s --check-prefix=BYTE
// RUN: %{run} --coro=byte_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=persistent | FileCheck %s --check-prefix=BYTE
// RUN: %{run} --coro=byte_sum --grid=4 --arg=3 --buffer=i32:4:zeros --scheduler=persistent --persistent-batch=8 --persistent-shared-memory=1024 | FileCheck %s --check-prefix=BYTE
// RUN: %{run} --coro=bool_digits --grid=4 --arg=0 --buffer=i32:4:zeros --scheduler=megakernel | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=0 --buffer=i32:4:zeros --scheduler=state-machine | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=0 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=1 | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=0 --buffer=i32:4:zeros --scheduler=wavefront | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=0 --buffer=i32:4:zeros --scheduler=wavefront --layout=aos --capacity=3 | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=0 --buffer=i32:4:zeros --scheduler=persistent | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=0 --buffer=i32:4:zeros --scheduler=persistent --persistent-batch=8 --persistent-shared-memory=1024 | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=2 --buffer=i32:4:zeros --scheduler=megakernel | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=2 --buffer=i32:4:zeros --scheduler=state-machine | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=2 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=1 | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=2 --buffer=i32:4:zeros --scheduler=wavefront | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=2 --buffer=i32:4:zeros --scheduler=wavefront --layout=aos --capacity=3 | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=2 --buffer=i32:4:zeros --scheduler=persistent | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=2 --buffer=i32:4:zeros --scheduler=persistent --persistent-batch=8 --persistent-shared-memory=1024 | FileCheck %s --check-prefix=BOOL0
// RUN: %{run} --coro=bool_digits --grid=4 --arg=8 --buffer=i32:4:zeros --scheduler=megakernel | FileCheck %s --check-prefix=BOOL8
// RUN: %{run} --coro=bool_digits --grid=4 --arg=8 --buffer=i32:4:zeros --scheduler=state-machine | FileCheck %s --check-prefix=BOOL8
// RUN: %{run} --coro=bool_digits --grid=4 --arg=8 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=1 | FileCheck %s --check-prefix=BOOL8
// RUN: %{run} --coro=bool_digits --grid=4 --arg=8 --buffer=i32:4:zeros --scheduler=wavefront | FileCheck %s --check-prefix=BOOL8
// RUN: %{run} --coro=bool_digits --grid=4 --arg=8 --buffer=i32:4:zeros --scheduler=wavefront --layout=aos --capacity=3 | FileCheck %s --check-prefix=BOOL8
// RUN: %{run} --coro=bool_digits --grid=4 --arg=8 --buffer=i32:4:zeros --scheduler=persistent | FileCheck %s --check-prefix=BOOL8
// RUN: %{run} --coro=bool_digits --grid=4 --arg=8 --buffer=i32:4:zeros --scheduler=persistent --persistent-batch=8 --persistent-shared-memory=1024 | FileCheck %s --check-prefix=BOOL8
// With --check=cpu: the CPU reference agrees.
// RUN: %{run} --coro=vec_sum --grid=2 --arg=3 --buffer=i32:4:zeros --check=cpu --quiet | FileCheck %s --check-prefix=CPU
// RUN: %{run} --coro=flag_sum --grid=4 --arg=3 --buffer=i32:4:zeros --check=cpu --quiet | FileCheck %s --check-prefix=CPU
// RUN: %{run} --coro=byte_sum --grid=4 --arg=3 --buffer=i32:4:zeros --check=cpu --quiet | FileCheck %s --check-prefix=CPU
// RUN: %{run} --coro=bool_digits --grid=4 --arg=0 --buffer=i32:4:zeros --check=cpu --quiet | FileCheck %s --check-prefix=CPU
// RUN: %{run} --coro=bool_digits --grid=4 --arg=2 --buffer=i32:4:zeros --check=cpu --quiet | FileCheck %s --check-prefix=CPU
// RUN: %{run} --coro=bool_digits --grid=4 --arg=8 --buffer=i32:4:zeros --check=cpu --quiet | FileCheck %s --check-prefix=CPU
// VEC: buffer 0 (i32 x 4): [36, 3, 36, 3]
// FLAG: buffer 0 (i32 x 4): [3, 6, 3, 6]
// BYTE: buffer 0 (i32 x 4): [3, 6, 9, 12]
// BOOL0: buffer 0 (i32 x 4): [0, 1, 0, 1]
// BOOL8: buffer 0 (i32 x 4): [10, 11, 10, 11]
// CPU: check: state-machine matches the CPU reference on
