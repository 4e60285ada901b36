// coro-run --png=I:WIDTHxHEIGHT:CHANNELS:PATH writes a whole buffer as an
// 8-bit RGB PNG: a float times --png-exposure, clamped to [0, 1], gamma
// 1/2.2 (0.25 -> 136, 0.5 -> 186), rows top first; one channel is gray.
// Integers go linearly from the smallest (black) to the largest (white).
// REQUIRES: vulkan
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-run %s --coro=ramp --grid=8 --buffer=f32:8:zeros --quiet --png=0:4x2:1:%t/gray.png
// RUN: coro-run %s --coro=ramp --grid=6 --buffer=f32:6:zeros --quiet --png=0:2x1:3:%t/rgb.png
// RUN: %python %S/Inputs/read-png.py %t/gray.png | FileCheck %s --check-prefix=GRAY
// GRAY:      4x2
// GRAY-NEXT: 0 0 0 136 136 136 186 186 186 224 224 224
// GRAY-NEXT: 255 255 255 255 255 255 255 255 255 255 255 255
// RUN: %python %S/Inputs/read-png.py %t/rgb.png | FileCheck %s --check-prefix=RGB
// RGB:      2x1
// RGB-NEXT: 0 136 186 224 255 255
// RUN: coro-run %s --coro=ramp --grid=4 --buffer=f32:4:zeros --quiet --png=0:4x1:1:%t/dark.png --png-exposure=0.5
// RUN: %python %S/Inputs/read-png.py %t/dark.png | FileCheck %s --check-prefix=DARK
// DARK:      4x1
// DARK-NEXT: 0 0 0 99 99 99 136 136 136 163 163 163
// RUN: coro-run %s --coro=count --grid=6 --buffer=i32:6:zeros --quiet --png=0:3x2:1:%t/ids.png
// RUN: %python %S/Inputs/read-png.py %t/ids.png | FileCheck %s --check-prefix=IDS
// IDS:      3x2
// IDS-NEXT: 0 0 0 51 51 51 102 102 102
// IDS-NEXT: 153 153 153 204 204 204 255 255 255
//
// Mistakes are usage errors (exit code 2) before anything runs:
// RUN: not coro-run %s --coro=ramp --grid=8 --buffer=f32:8:zeros --png=0:4x4:1:%t/big.png 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: coro-run: error: --png '0:4x4:1:{{.*}}big.png': 4x4 pixels of 1 channel(s) are 16 values, buffer 0 has 8 (the image is the whole buffer)
// RUN: not coro-run %s --coro=ramp --grid=8 --buffer=f32:8:zeros --png=0:2x2:1:%t/small.png 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: coro-run: error: --png '0:2x2:1:{{.*}}small.png': 2x2 pixels of 1 channel(s) are 4 values, buffer 0 has 8 (the image is the whole buffer)
// RUN: not coro-run %s --coro=ramp --grid=8 --buffer=f32:8:zeros --png=1:2x2:1:%t/x.png 2>&1 | FileCheck %s --check-prefix=WHICH
// WHICH: coro-run: error: --png '1:2x2:1:{{.*}}': there is no buffer 1 (the run has 1 buffer(s))
// RUN: not coro-run %s --coro=ramp --grid=8 --buffer=f32:8:zeros --png=0:2x2:2:%t/x.png 2>&1 | FileCheck %s --check-prefix=COLORS
// COLORS: coro-run: error: --png '0:2x2:2:{{.*}}': the size must be 1 to 65536 pixels a side and CHANNELS 1 or 3
// RUN: not coro-run %s --coro=ramp --grid=8 --buffer=f32:8:zeros --png=0:2x2:%t/x.png 2>&1 | FileCheck %s --check-prefix=FORM
// FORM: coro-run: error: --png '0:2x2:{{.*}}': expected I:WIDTHxHEIGHT:CHANNELS:PATH
// RUN: not coro-run %s --coro=ramp --grid=8 --buffer=f32:8:zeros --png=0:4x1:1:%t/x.png --png-exposure=-1 2>&1 | FileCheck %s --check-prefix=EXPOSURE
// EXPOSURE: coro-run: error: --png-exposure must be a positive number
// RUN: coro-run %s --coro=ramp --grid=8 --buffer=f32:8:zeros --png=0:4x4:1:%t/big.png >/dev/null 2>&1; test $? -eq 2

// out[i] = i / 4: 0, 0.25, 0.5, 0.75, 1, 1.25, ...
coro.func @ramp(%out: memref<?xf32>) {
  %id = coro.id : index
  coro.suspend "scale"
  %i = arith.index_cast %id : index to i32
  %f = arith.sitofp %i : i32 to f32
  %quarter = arith.constant 0.25 : f32
  %v = arith.mulf %f, %quarter : f32
  memref.store %v, %out[%id] : memref<?xf32>
  coro.return
}

coro.func @count(%out: memref<?xi32>) {
  %id = coro.id : index
  %i = arith.index_cast %id : index to i32
  memref.store %i, %out[%id] : memref<?xi32>
  coro.return
}
