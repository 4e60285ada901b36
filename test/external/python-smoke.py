# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The installed corogpu package: it is the one imported (argv[1] is where
it must come from), and a coroutine runs under the state machine and the
wavefront, checked against the mega-kernel."""

import os
import sys

import numpy as np

import corogpu
from corogpu import Buffer, f32

where = os.path.dirname(os.path.abspath(corogpu.__file__))
if where != os.path.abspath(sys.argv[1]):
    sys.exit(f"python-smoke: imported corogpu from {where}, not {sys.argv[1]}")


@corogpu.coroutine
def halve(data: Buffer[f32]):
    i = corogpu.id()
    corogpu.suspend("halfway")
    data[i] = data[i] * 0.5


for scheduler in ("state-machine", "wavefront"):
    data = np.arange(32, dtype=np.float32)
    halve(32, data, scheduler=scheduler, check=True)
    if not np.array_equal(data, np.arange(32, dtype=np.float32) * 0.5):
        sys.exit(f"python-smoke: wrong results under {scheduler}: {data}")
print("corogpu", where, "ran under state-machine and wavefront")
