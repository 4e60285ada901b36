# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks of generated PTX that ptxas does not make.

narrow_float_stores finds the stores of part of a 64-bit register that a
float instruction wrote (`cvt.f64.f32 %rd2, %r1; st.global.b32 [a], %rd2;`):
ptxas of CUDA 13.0 (sm_90) compiles such a store into a conversion of the
value to an integer (F2I.U32.F64.TRUNC) instead of a store of its low bits,
seen on an H100. The NVVM pipeline avoids them (coro-nvvm-unpack-f64); this
check keeps it that way for the e2e corpus (test/e2e/run-corpus.py
--mode=ptxas) and the fuzzer's ptx stage.

    python3 -m corofuzz.ptx FILE.ptx...   # prints each, exits 1 if any
"""

import re
import sys

_PREDICATE = r"\s*(?:@!?%p\d+\s+)?"
# A store of 8, 16 or 32 bits, any state space and qualifiers, of one
# register or a vector of them.
_STORE = re.compile(_PREDICATE + r"st(?:\.[\w:]+)*\.b(?:8|16|32)\s+\[[^\]]*\],\s*"
                    r"(\{[^}]*\}|%\w+)")
# An instruction that writes a 64-bit register: opcode, destination,
# operands.
_WRITE = re.compile(_PREDICATE + r"([a-z][\w.:]*)\s+(%rd\d+),\s*(.*?);")
_TYPE = re.compile(r"\.([fbsu](?:8|16|32|64)|f16x2|bf16)\b")


def _writes_float(opcode, operands, floats):
    """Whether `opcode operands` leaves a float in its 64-bit destination."""
    types = _TYPE.findall(opcode)
    if not types:
        return False
    # cvt.<dest>.<source>: the first type is the destination's; elsewhere
    # the instruction has one type, or the last one is the result's.
    destination = types[0] if opcode.startswith("cvt") else types[-1]
    if destination.startswith("f") or destination == "bf16":
        return True
    # Bit moves and selects pass a float on.
    if destination.startswith("b") and opcode.split(".")[0] in ("mov", "selp"):
        return any(register in floats
                   for register in re.findall(r"%rd\d+", operands))
    return False


def narrow_float_stores(text):
    """(line, store) for each narrow store of a float-written 64-bit
    register in PTX `text`."""
    floats, found = set(), []
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(r"\s*(?:\.visible\s+|\.weak\s+)?\.(?:entry|func)\b", line):
            floats = set()  # Register names are per function.
        store = _STORE.match(line)
        if store and any(register in floats for register in
                         re.findall(r"%rd\d+", store.group(1))):
            found.append((number, line.strip()))
            continue
        write = _WRITE.match(line)
        if write:
            opcode, destination, operands = write.groups()
            if _writes_float(opcode, operands, floats):
                floats.add(destination)
            else:
                floats.discard(destination)
    return found


def describe(path, number, line):
    """The message about the narrow store `line` at `path`:`number`."""
    return ("%s:%d: narrow store of a float register (ptxas miscompiles it; "
            "see coro-nvvm-unpack-f64): %s" % (path, number, line))


def check_file(path):
    """describe() of each narrow store in the PTX file `path`."""
    with open(path) as ptx:
        return [describe(path, number, line)
                for number, line in narrow_float_stores(ptx.read())]


def main(paths):
    problems = [problem for path in paths for problem in check_file(path)]
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
