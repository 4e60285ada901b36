//===- BufferIO.h - buffers from specs and files, to files ------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What `coro-run --buffer`, `--output-dir` and `--png` do, for embedders of
// the Runner library: a buffer from a TYPE:COUNT:INIT spec (zeros, iota,
// constant, random, raw file, NumPy .npy), and buffers written as raw
// bytes, .npy and PNG images.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNNER_BUFFERIO_H
#define COROGPU_RUNNER_BUFFERIO_H

#include "CoroGPU/Conversion/SchedulerOptions.h"
#include "CoroGPU/Runner/HostBuffer.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"

#include <array>
#include <string>

namespace mlir {
namespace coro {
namespace runner {

/// Why a `target` kernel's argument `memref` cannot
/// get a buffer from a spec for its elements (see checkHostMemRef; nor
/// bf16, which specs do not name), or empty when it can.
std::string checkBufferArgument(MemRefType memref, const KernelTarget &target);

/// A buffer for argument #`argument` of type `memref` from `spec`,
/// TYPE:COUNT:INIT with TYPE the memref's element type (i1, i8, i16, i32,
/// i64, f16, f32 or f64) and INIT one of zeros, iota, const=V, random=SEED
/// (uniform in [0, 1) for floats, integers in [0, 1000), [0, 128) for i8, 0 or
/// 1 for i1), file=PATH (raw little-endian bytes, exactly COUNT elements) or
/// npy=PATH (see readNumpyFile). A static memref needs at least its element
/// count.
llvm::Expected<HostBuffer> parseBufferSpec(StringRef spec, MemRefType memref,
                                           unsigned argument);

/// The NumPy dtype of buffers of `type` ("<f4", ...).
StringRef getNumpyType(Type type);

/// The elements of the NPY file at `path` (format 1.0 to 3.0, as np.save
/// writes it), which must hold `count` elements of `elementType`'s dtype; a
/// multi-dimensional array is read in C order (Fortran order is an error).
llvm::Expected<HostBuffer> readNumpyFile(StringRef path, Type elementType,
                                         size_t count);

/// The NumPy shape of a buffer of `count` elements written by a run over
/// `grid`: the grid's (C order, the slowest extent first, extents of 1 left
/// out), and the elements of each instance last when the buffer holds
/// several per instance (an RGB image of a 64x64 grid: (64, 64, 3));
/// (count,) when the buffer is not a multiple of the grid.
SmallVector<uint64_t> getGridShape(std::array<uint32_t, 3> grid, size_t count);

/// Writes `buffer` as an NPY 1.0 file of `shape` (one dimension when
/// `shape` is empty or does not hold the buffer's elements).
void writeNumpy(const HostBuffer &buffer, llvm::raw_ostream &os,
                ArrayRef<uint64_t> shape = {});

/// Writes `buffer` as `<dir>/buffer<index>.bin` (raw bytes) and `.npy` (of
/// `shape`, see writeNumpy).
llvm::Error writeBufferFiles(StringRef dir, unsigned index,
                             const HostBuffer &buffer,
                             ArrayRef<uint64_t> shape = {});

/// One PNG image of a buffer: WIDTHxHEIGHT pixels of 1 (gray) or 3
/// (RGB) channels, row-major from the top-left pixel.
struct PngImage {
  unsigned buffer = 0;
  unsigned width = 0, height = 0, channels = 0;
  std::string path;
};

/// Parses I:WIDTHxHEIGHT:CHANNELS:PATH, checked against `buffers` (the image
/// is the whole buffer: WIDTH x HEIGHT x CHANNELS elements); the error
/// starts with the spec in quotes.
llvm::Expected<PngImage> parsePngSpec(StringRef spec,
                                      ArrayRef<HostBuffer> buffers);

/// Writes `buffer` as the 8-bit RGB PNG `image`: each float times
/// `exposure`, clamped to [0, 1], gamma 1/2.2 (NaN is black); integers
/// scaled linearly from the buffer's smallest value (black) to its largest
/// (white).
llvm::Error writePng(const PngImage &image, const HostBuffer &buffer,
                     double exposure);

} // namespace runner
} // namespace coro
} // namespace mlir

#endif // COROGPU_RUNNER_BUFFERIO_H
