# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""CompileError: a located error in a kernel's Python source, printed the
way a compiler prints one (file:line:col: error: message, the line, a
caret)."""

import linecache


class CompileError(Exception):
    """An error in the Python source of a corogpu kernel.

    `filename`, `line` (1-based) and `col` (1-based) locate it in the file;
    `message` says what is wrong. `str(e)` gives
    "{file}:{line}:{col}: error: {message}" followed by the source line and
    a caret under the column."""

    def __init__(self, message, filename="<unknown>", line=0, col=0,
                 source_line=None):
        self.message = message
        self.filename = filename
        self.line = line
        self.col = col
        if source_line is None and line > 0:
            source_line = linecache.getline(filename, line).rstrip("\n")
        self.source_line = source_line or ""
        super().__init__(self._format())

    def _format(self):
        text = f"{self.filename}:{self.line}:{self.col}: error: {self.message}"
        if self.source_line:
            caret = " " * max(self.col - 1, 0) + "^"
            # Keep tabs so that the caret lines up under the column.
            prefix = "".join(c if c == "\t" else " "
                             for c in self.source_line[:max(self.col - 1, 0)])
            caret = prefix + "^"
            text += "\n" + self.source_line + "\n" + caret
        return text

    def __str__(self):
        return self._format()
