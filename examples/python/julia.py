#!/usr/bin/env python3
# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The tutorial's Julia set (examples/tutorial/julia.mlir) written in Python.

One coroutine per pixel; the escape-time loop suspends after every
iteration ("iterate") and promises its band (iterations / 8) as a key to
sort by. Runs it under every scheduler, each checked against the
mega-kernel, prints what the wavefront did, and saves the image with
matplotlib (--png FILE).

    python3 examples/python/julia.py [--size 64] [--png julia.png]
"""

import argparse

import numpy as np

import corogpu
from corogpu import Buffer, f32, i32

LIMIT = 64


@corogpu.coroutine
def julia(size: i32, image: Buffer[f32]):
    x = corogpu.id(0)
    y = corogpu.id(1)
    pixel = corogpu.id()
    # z0 = 3 (p + 0.5) / size - 1.5, in [-1.5, 1.5]^2.
    zr = (f32(i32(x)) + 0.5) / f32(size) * 3.0 - 1.5
    zi = (f32(i32(y)) + 0.5) / f32(size) * 3.0 - 1.5
    n = 0
    while zr * zr + zi * zi < 4.0 and n < LIMIT:
        # z = z^2 + c
        zr, zi = zr * zr - zi * zi - 0.8, 2.0 * zr * zi + 0.156
        n += 1
        corogpu.promise("band", n // 8)
        corogpu.suspend("iterate")
    image[pixel] = f32(n) / f32(LIMIT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--png", help="save the image here (matplotlib)")
    args = parser.parse_args()

    image = np.zeros(args.size * args.size, np.float32)
    for scheduler in corogpu.SCHEDULERS:
        run = julia.run((args.size, args.size), args.size, image,
                        scheduler=scheduler, check=scheduler != "megakernel")
        print(f"{scheduler}: GPU {run.timing['gpu']:.1f} ms"
              + (", matches the mega-kernel" if run.checked else ""))
    julia((args.size, args.size), args.size, image, scheduler="wavefront",
          sort_by="band", check=True)
    print(julia.last_run.stats_text.splitlines()[1])
    print(f"mean brightness {image.mean():.4f}")
    if args.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        plt.imsave(args.png, image.reshape(args.size, args.size),
                   cmap="magma")
        print(f"wrote {args.png}")


if __name__ == "__main__":
    main()
