# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Prints a PNG that coro-run --png wrote: its size, then each row's RGB
bytes; fails on a bad signature, chunk CRC, bit depth, color type or
filter (coro-run writes 8-bit RGB, filter 0)."""

import struct
import sys
import zlib

with open(sys.argv[1], "rb") as png:
    data = png.read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature"
at, chunks = 8, {}
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    body = data[at + 8:at + 8 + length]
    crc, = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
    assert crc == zlib.crc32(kind + body), "bad CRC in " + kind.decode()
    chunks[kind] = body
    at += 12 + length
width, height, depth, color = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
assert (depth, color) == (8, 2), "not 8-bit RGB"
assert b"IEND" in chunks
rows = zlib.decompress(chunks[b"IDAT"])
print("%dx%d" % (width, height))
stride = 1 + 3 * width
for y in range(height):
    row = rows[y * stride:(y + 1) * stride]
    assert row[0] == 0, "filter %d" % row[0]
    print(" ".join(str(b) for b in row[1:]))
