# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the .npy files of coro-run-npy.mlir into the directory argv[1],
by hand (no NumPy needed): the NPY format's magic string, version, header
length, a dict padded to 64 bytes, then the elements."""

import os
import struct
import sys


def write(path, descr, shape, values, fmt, version=1, fortran=False):
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, fortran, "(%s,)" % shape[0] if len(shape) == 1 else str(shape))
    length_bytes = 2 if version == 1 else 4
    total = 6 + 2 + length_bytes + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    length = struct.pack("<H" if version == 1 else "<I", len(header))
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY" + bytes([version, 0]) + length +
                  header.encode("latin1") + struct.pack(fmt, *values))


out = sys.argv[1]
write(os.path.join(out, "matrix-v2.npy"), "<f4", (2, 3),
      [1, 2, 3, 4, 5, 6], "<6f", version=2)
write(os.path.join(out, "native-v3.npy"), "=f4", (6,),
      [-1, -2, -3, -4, -5, -6], "<6f", version=3)
write(os.path.join(out, "ints.npy"), "<i4", (6,), list(range(6)), "<6i")
write(os.path.join(out, "fortran.npy"), "<f4", (3, 2),
      [1, 2, 3, 4, 5, 6], "<6f", fortran=True)
# A header for 6 elements, and the data of 5.
write(os.path.join(out, "short.npy"), "<f4", (6,), [1, 2, 3, 4, 5], "<5f")
# A shape whose element count overflows 64 bits (2 x (2^63 + 3) wraps to 6).
write(os.path.join(out, "overflow.npy"), "<f4", (2, 2**63 + 3),
      [1, 2, 3, 4, 5, 6], "<6f")
# Fortran order with one extent above 1 is C order.
write(os.path.join(out, "row-fortran.npy"), "<f4", (1, 6),
      [1, 2, 3, 4, 5, 6], "<6f", fortran=True)
# The magic string and a version, then nothing.
with open(os.path.join(out, "truncated.npy"), "wb") as truncated:
    truncated.write(b"\x93NUMPY\x01")
