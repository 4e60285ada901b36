# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The exceptions of the corogpu package.

- CompileError: Python outside the kernel subset (raised by the front end at
  the construct's line), or a diagnostic of the MLIR verifier or of a pass
  (PassError, located at the Python line the op came from).
- TypeError: an argument of the wrong type, dtype or shape, before anything
  compiles (ShapeError: an array too small for the grid, at the access). ValueError: an unknown scheduler, option or target.
- RunError and its kinds: what the runtime reports (no device, a limit, a
  check that found different results, accesses out of bounds).
"""

import re

from .frontend.errors import CompileError


class PassError(CompileError):
    """A diagnostic of the MLIR verifier or of a CoroGPU pass.

    `diagnostics` is the compiler's whole text (every error and note, each
    with its file:line:col and the source line); `filename`, `line` and `col`
    are those of the first located error.
    """

    _LOCATION = re.compile(r"^(.*?):(\d+):(\d+): error: (.*)$", re.MULTILINE)

    def __init__(self, diagnostics):
        Exception.__init__(self, diagnostics)
        self.diagnostics = diagnostics
        self.filename = self.line = self.col = None
        self.message = diagnostics
        first = self._LOCATION.search(diagnostics)
        if first:
            self.filename = first.group(1)
            self.line = int(first.group(2))
            self.col = int(first.group(3))
            self.message = first.group(4)

    def __str__(self):
        return self.diagnostics


class RunError(RuntimeError):
    """A run failed; the message is the runtime's."""


class DeviceError(RunError):
    """No device, or the device failed."""


class LimitExceeded(RunError):
    """A run went past a limit: rounds, seconds, or the driver's loop limit."""


class CheckMismatch(RunError):
    """check=True found results that differ from the mega-kernel's."""


class BoundsError(RunError):
    """check_bounds=True found accesses out of bounds: how many, and where
    (the Python line of each access, the instance, the index)."""


class ShapeError(TypeError):
    """An array smaller than the grid where the instance id indexes it,
    located at the access (found before running)."""
