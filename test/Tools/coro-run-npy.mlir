// coro-run --buffer=TYPE:COUNT:npy=PATH reads a NumPy .npy file, its dtype
// and element count checked against the buffer.
// RUN: rm -rf %t && mkdir -p %t
// .npy files written by coro-run itself (--output-dir) and by a script in
// the three header versions, C order (a 2 x 3 array is read row by row),
// with the native byte order `=`:
// RUN: %python %S/Inputs/write-npy.py %t
//
// REQUIRES: vulkan
// RUN: coro-run %s --coro=twice --grid=6 --buffer=f32:6:iota --buffer=f32:6:zeros --quiet --output-dir=%t/first
// RUN: coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/first/buffer0.npy --buffer=f32:6:zeros | FileCheck %s --check-prefix=ROUND
// ROUND: buffer 1 (f32 x 6): [0, 2, 4, 6, 8, 10]
// RUN: coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/matrix-v2.npy --buffer=f32:6:zeros | FileCheck %s --check-prefix=MATRIX
// MATRIX: buffer 1 (f32 x 6): [2, 4, 6, 8, 10, 12]
// RUN: coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/native-v3.npy --buffer=f32:6:zeros | FileCheck %s --check-prefix=NATIVE
// NATIVE: buffer 1 (f32 x 6): [-2, -4, -6, -8, -10, -12]
// RUN: coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/row-fortran.npy --buffer=f32:6:zeros | FileCheck %s --check-prefix=MATRIX
// --output-dir's .npy files have the grid's shape, slowest extent first,
// and the elements of each instance last where a buffer holds several:
// RUN: coro-run %s --grid=3x2 --buffer=f32:18:iota --buffer=f32:6:zeros --quiet --output-dir=%t/shaped
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); print(d[10:d.index(b'\n')].decode())" %t/shaped/buffer0.npy | FileCheck %s --check-prefix=SHAPE3
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); print(d[10:d.index(b'\n')].decode())" %t/shaped/buffer1.npy | FileCheck %s --check-prefix=SHAPE2
// SHAPE3: 'shape': (2, 3, 3,)
// SHAPE2: 'shape': (2, 3,)
// --json names the values JSON has no number for:
// RUN: coro-run %s --coro=twice --grid=6 --buffer=f32:6:const=inf --buffer=f32:6:zeros --json | FileCheck %s --check-prefix=JSON
// JSON: "values": [
// JSON-NEXT: "inf",
//
// Mistakes are usage errors (exit code 2), before any device is needed:
// RUN: not coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/ints.npy --buffer=f32:6:zeros 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: coro-run: error: buffer 'f32:6:npy={{.*}}ints.npy': '{{.*}}ints.npy' holds elements of dtype <i4, but the buffer is f32 (<f4)
// RUN: not coro-run %s --coro=twice --grid=6 --buffer=f32:5:npy=%t/matrix-v2.npy --buffer=f32:6:zeros 2>&1 | FileCheck %s --check-prefix=ELEMENTS
// ELEMENTS: coro-run: error: buffer 'f32:5:npy={{.*}}': '{{.*}}matrix-v2.npy' holds 6 elements (shape (2, 3)), but the buffer has 5
// RUN: not coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/fortran.npy --buffer=f32:6:zeros 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: coro-run: error: buffer '{{.*}}': '{{.*}}fortran.npy' is not a usable .npy file: a 2-dimensional array in Fortran order (save it in C order: np.ascontiguousarray)
// RUN: not coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/first/buffer0.bin --buffer=f32:6:zeros 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: coro-run: error: buffer '{{.*}}': '{{.*}}buffer0.bin' is not a usable .npy file: no NPY magic string
// RUN: not coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/short.npy --buffer=f32:6:zeros 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: coro-run: error: buffer '{{.*}}': '{{.*}}short.npy' is not a usable .npy file: its data has 20 bytes, its header says 24
// RUN: not coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/overflow.npy --buffer=f32:6:zeros 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: coro-run: error: buffer '{{.*}}': '{{.*}}overflow.npy' is not a usable .npy file: bad shape (2, 9223372036854775811)
// RUN: not coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/truncated.npy --buffer=f32:6:zeros 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: coro-run: error: buffer '{{.*}}': '{{.*}}truncated.npy' is not a usable .npy file: truncated header
// RUN: not coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/missing.npy --buffer=f32:6:zeros 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: coro-run: error: buffer '{{.*}}': cannot read '{{.*}}missing.npy': No such file or directory
// RUN: coro-run %s --coro=twice --grid=6 --buffer=f32:6:npy=%t/ints.npy --buffer=f32:6:zeros >/dev/null 2>&1; test $? -eq 2

coro.func @twice(%in: memref<?xf32>, %out: memref<?xf32>) {
  %id = coro.id : index
  %x = memref.load %in[%id] : memref<?xf32>
  coro.suspend "double"
  %y = arith.addf %x, %x : f32
  memref.store %y, %out[%id] : memref<?xf32>
  coro.return
}
