# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A bar chart as a PNG, with the standard library only (a 3x5 pixel font).

    write_bar_chart(path, title, groups, shared_scale=False)

`groups` is a list of (group title, [(label, value, value text), ...]); each
group gets its own scale (its largest value fills the width), or with
`shared_scale` all share the largest value of all; one horizontal bar per
entry, labelled on the left and with its value text on the right. A label
has the same colour in every group.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "sdf"))
from to_png import write_png  # noqa: E402

# 3 columns x 5 rows per glyph, one string of 15 bits (row by row).
FONT = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111",
    "3": "111001111001111", "4": "101101111001001", "5": "111100111001111",
    "6": "111100111101111", "7": "111001001001001", "8": "111101111101111",
    "9": "111101111001111", "A": "010101111101101", "B": "110101110101110",
    "C": "011100100100011", "D": "110101101101110", "E": "111100110100111",
    "F": "111100110100100", "G": "011100101101011", "H": "101101111101101",
    "I": "111010010010111", "J": "001001001101010", "K": "101101110101101",
    "L": "100100100100111", "M": "101111111101101", "N": "110101101101101",
    "O": "010101101101010", "P": "110101110100100", "Q": "010101101110011",
    "R": "110101110101101", "S": "011100010001110", "T": "111010010010010",
    "U": "101101101101111", "V": "101101101101010", "W": "101101111111101",
    "X": "101101010101101", "Y": "101101010010010", "Z": "111001010100111",
    ".": "000000000000010", "-": "000000111000000", "%": "101001010100101",
    "(": "001010010010001", ")": "100010010010100", ":": "000010000010000",
    "/": "001001010100100", ",": "000000000010100", " ": "000000000000000",
    "_": "000000000000111", "=": "000111000111000", "@": "010101111100011",
}
SCALE = 2                     # pixels per font pixel
GLYPH_W, GLYPH_H = 4 * SCALE, 6 * SCALE   # with spacing
COLORS = [(66, 133, 244), (219, 68, 55), (244, 180, 0), (15, 157, 88),
          (171, 71, 188), (0, 172, 193), (255, 112, 67), (158, 157, 36),
          (121, 85, 72), (96, 125, 139), (233, 30, 99), (63, 81, 181),
          (139, 195, 74), (255, 235, 59)]


class Canvas:
    def __init__(self, width, height):
        self.width, self.height = width, height
        self.pixels = bytearray(b"\xff" * (3 * width * height))

    def rect(self, x, y, w, h, color):
        for row in range(max(0, y), min(self.height, y + h)):
            start = 3 * (row * self.width + max(0, x))
            end = 3 * (row * self.width + min(self.width, x + w))
            self.pixels[start:end] = bytes(color) * ((end - start) // 3)

    def text(self, x, y, text, color=(0, 0, 0)):
        for char in text.upper():
            bits = FONT.get(char, FONT[" "])
            for i, bit in enumerate(bits):
                if bit == "1":
                    self.rect(x + (i % 3) * SCALE, y + (i // 3) * SCALE,
                              SCALE, SCALE, color)
            x += GLYPH_W


def write_bar_chart(path, title, groups, shared_scale=False):
    label_chars = max(len(label) for _, entries in groups
                      for label, _, _ in entries)
    value_chars = max(len(text) for _, entries in groups
                      for _, _, text in entries)
    margin, bar_area, row_h = 10, 360, GLYPH_H + 6
    label_w = label_chars * GLYPH_W + 10
    width = margin * 2 + label_w + bar_area + 10 + value_chars * GLYPH_W
    height = margin + 2 * row_h + sum(
        (len(entries) + 2) * row_h for _, entries in groups)
    canvas = Canvas(width, height)
    colours = {}
    for _, entries in groups:
        for label, _, _ in entries:
            colours.setdefault(label, COLORS[len(colours) % len(COLORS)])
    overall = max(value for _, entries in groups for _, value, _ in entries)
    y = margin
    canvas.text(margin, y, title)
    y += 2 * row_h
    for group_title, entries in groups:
        canvas.text(margin, y, group_title)
        y += row_h
        largest = (overall if shared_scale else
                   max(value for _, value, _ in entries)) or 1.0
        for label, value, text in entries:
            canvas.text(margin, y + 2, label)
            length = max(1, int(bar_area * value / largest))
            canvas.rect(margin + label_w, y, length, GLYPH_H + 2,
                        colours[label])
            canvas.text(margin + label_w + length + 6, y + 2, text)
            y += row_h
        y += row_h
    write_png(path, width, height, canvas.pixels)
