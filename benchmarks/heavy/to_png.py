#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Averages the samples heavy.mlir writes (3 floats per instance, instance
= pixel * spp + sample) into an image and writes it as a PNG (standard
library only; the tone mapping of benchmarks/sdf/to_png.py: exposure,
clamp, gamma 2.2).

    to_png.py SAMPLES WIDTH SPP OUTPUT.png [--exposure=1.0]
              [--average=IMAGE.f32]

SAMPLES is the last buffer of a run with `coro-run --output-dir=DIR`
(DIR/buffer10.bin). --average also writes the averaged image as raw
little-endian f32 RGB, for comparisons.

Example (README.md):
  python3 benchmarks/heavy/to_png.py out/buffer10.bin 128 16 heavy.png
"""

import argparse
import array
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "sdf"))
from to_png import read_floats, tone_map, write_png  # noqa: E402


def average(samples, spp):
    """The per-pixel means of `samples` (RGB, spp consecutive samples per
    pixel)."""
    pixels = len(samples) // (3 * spp)
    image = array.array("f", bytes(12 * pixels))
    scale = 1.0 / spp
    for p in range(pixels):
        base = 3 * spp * p
        for c in range(3):
            image[3 * p + c] = sum(samples[base + c:base + 3 * spp:3]) * scale
    return image


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("samples")
    parser.add_argument("width", type=int)
    parser.add_argument("spp", type=int)
    parser.add_argument("output")
    parser.add_argument("--exposure", type=float, default=1.0)
    parser.add_argument("--average", help="also write the image as f32 RGB")
    options = parser.parse_args()

    samples = read_floats(options.samples)
    if options.spp < 1 or len(samples) % (3 * options.spp):
        sys.exit("to_png.py: %d floats are not 3 x %d samples per pixel" %
                 (len(samples), options.spp))
    image = average(samples, options.spp)
    width = options.width
    pixels = len(image) // 3
    if width <= 0 or pixels % width:
        sys.exit("to_png.py: %d pixels do not make rows of %d" %
                 (pixels, width))
    height = pixels // width
    write_png(options.output, width, height,
              tone_map(image, 3, options.exposure))
    if options.average:
        out = array.array("f", image)
        if sys.byteorder != "little":
            out.byteswap()
        with open(options.average, "wb") as f:
            out.tofile(f)
    print("to_png.py: wrote %s (%d x %d, %d spp)" % (
        options.output, width, height, options.spp))


if __name__ == "__main__":
    main()
