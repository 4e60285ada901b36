#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Turns an image written by coro-run into a PNG (standard library only).

    to_png.py BUFFER WIDTH OUTPUT.png [--channels=3] [--exposure=1.0]

BUFFER is a raw little-endian f32 buffer, as `coro-run --output-dir=DIR`
writes it (DIR/buffer0.bin): linear RGB, 3 floats per pixel, row by row from
the top (--channels=1 for a luminance image). The height is the number of
pixels over WIDTH. Each value is multiplied by the exposure, clamped to
[0, 1] and gamma-corrected (1/2.2) to 8 bits.

Example (benchmarks/sdf/README.md):
  build/bin/coro-run benchmarks/sdf/sdf.mlir --coro=sdf_render \\
      --grid=12288 --arg=128 --arg=96 --arg=16 --arg=3 \\
      --buffer=f32:36864:zeros --scheduler=megakernel --output-dir=out
  benchmarks/sdf/to_png.py out/buffer0.bin 128 sdf.png
"""

import argparse
import array
import struct
import sys
import zlib


def chunk(kind, data):
    """One PNG chunk: length, type, data, CRC of type and data."""
    body = kind + data
    return (struct.pack(">I", len(data)) + body +
            struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF))


def to_byte(value, exposure):
    value = value * exposure
    if not value > 0.0:  # Also NaN.
        return 0
    if value >= 1.0:
        return 255
    return int(round(255.0 * value ** (1.0 / 2.2)))


def write_png(path, width, height, rgb):
    """Writes `rgb` (height rows of width RGB8 pixels, bytes) as a PNG."""
    rows = bytearray()
    stride = 3 * width
    for y in range(height):
        rows.append(0)  # Filter type 0 (none) for this scanline.
        rows.extend(rgb[y * stride:(y + 1) * stride])
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # RGB8
    with open(path, "wb") as png:
        png.write(b"\x89PNG\r\n\x1a\n")
        png.write(chunk(b"IHDR", header))
        png.write(chunk(b"IDAT", zlib.compress(bytes(rows), 9)))
        png.write(chunk(b"IEND", b""))


def tone_map(values, channels, exposure=1.0):
    """Linear floats (1 or 3 per pixel) -> RGB8 bytes, gamma 2.2."""
    rgb = bytearray()
    if channels == 3:
        rgb.extend(to_byte(v, exposure) for v in values)
    else:
        for v in values:
            b = to_byte(v, exposure)
            rgb.extend((b, b, b))
    return rgb


def read_floats(path):
    values = array.array("f")
    with open(path, "rb") as data:
        values.frombytes(data.read())
    if sys.byteorder != "little":
        values.byteswap()
    return values


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("buffer")
    parser.add_argument("width", type=int)
    parser.add_argument("output")
    parser.add_argument("--channels", type=int, choices=(1, 3), default=3)
    parser.add_argument("--exposure", type=float, default=1.0)
    options = parser.parse_args()

    values = read_floats(options.buffer)
    pixels = len(values) // options.channels
    width = options.width
    if width <= 0 or pixels < width:
        sys.exit("to_png.py: %d pixels do not make a row of %d" %
                 (pixels, width))
    height = pixels // width
    values = values[:width * height * options.channels]
    write_png(options.output, width, height,
              tone_map(values, options.channels, options.exposure))
    print("to_png.py: wrote %s (%d x %d)" % (options.output, width, height))


if __name__ == "__main__":
    main()
