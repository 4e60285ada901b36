#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the kernel image (SPIR-V words or PTX text) of a gpu.binary that
coro-host-launches-to-gpu made, read from the MLIR text on stdin, to
stdout: the object is the magic line "coro-host-kernels v2", the
descriptor, a NUL byte and the image (runner::encodeHostKernels)."""

import re
import sys


def unescape(text):
    """The bytes of an MLIR string literal's body: \\HH escapes, \\\\ and
    \\" for themselves, everything else as written."""
    out = bytearray()
    i = 0
    while i < len(text):
        if text[i] == "\\":
            nxt = text[i + 1]
            if nxt in "\\\"":
                out.append(ord(nxt))
                i += 2
            elif nxt == "n":
                out.append(10)
                i += 2
            elif nxt == "t":
                out.append(9)
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out += text[i].encode()
            i += 1
    return bytes(out)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: host-image.py @BINARY < module.mlir > image")
    name = sys.argv[1].lstrip("@")
    text = sys.stdin.read()
    m = re.search(r"gpu\.binary @%s\b.*?bin = \"((?:[^\"\\]|\\.)*)\"" % re.escape(name),
                  text, re.S)
    if not m:
        sys.exit("host-image.py: no gpu.binary @%s with an object" % name)
    obj = unescape(m.group(1))
    magic = b"coro-host-kernels v"
    if not obj.startswith(magic) or b"\0" not in obj:
        sys.exit("host-image.py: @%s holds no host kernels" % name)
    sys.stdout.buffer.write(obj[obj.index(b"\0") + 1:])


if __name__ == "__main__":
    main()
