"""Blocks of text: consecutive lines that sit under each other form one
caption, turned captions compared as if level."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image

from generation.ocr.geometry import Box
from generation.ocr.lines import read_text
from generation.ocr.page import MIN_SKEW
from generation.ocr.results import OcrBlock, OcrLine


def read_blocks(image: Image.Image) -> list[OcrBlock]:
    """Lines grouped into blocks of text (one caption each), top to bottom."""
    return group_blocks(read_text(image))


def group_blocks(lines: Sequence[OcrLine]) -> list[OcrBlock]:
    """Consecutive lines that sit right under each other, overlap horizontally
    and have similar heights form one block."""
    blocks: list[list[OcrLine]] = []
    for line in sorted(lines, key=lambda line: (line.box[1], line.box[0])):
        home = next((block for block in blocks if continues(block[-1], line)), None)
        if home is None:
            blocks.append([line])
        else:
            home.append(line)
    return [make_block(block) for block in blocks]


def continues(above: OcrLine, below: OcrLine) -> bool:
    """The line below carries on the block of the line above: right under it,
    overlapping it across, of a similar height; turned lines are compared as
    if turned level, and only with lines turned the same way."""
    if above.angle or below.angle:
        if abs(above.angle - below.angle) > MIN_SKEW:
            return False
        return stacked(levelled(above, above.angle), levelled(below, above.angle))
    return stacked(above.box, below.box)


def stacked(above: Box, below: Box) -> bool:
    left_a, top_a, width_a, height_a = above
    left_b, top_b, width_b, height_b = below
    gap = top_b - (top_a + height_a)  # pixels between the lines
    shared = min(left_a + width_a, left_b + width_b) - max(left_a, left_b)
    similar = max(height_a, height_b) <= 1.6 * max(1, min(height_a, height_b))
    return -0.5 * height_a <= gap <= 0.8 * max(height_a, height_b) and shared > 0 and similar


def levelled(line: OcrLine, angle: float) -> Box:
    """The line's box in a frame turned with its text (its upright size around
    its centre turned by -angle), so stacked lines read as they would level."""
    radians = np.radians(angle)
    x = line.box[0] + line.box[2] / 2
    y = line.box[1] + line.box[3] / 2
    across = x * np.cos(radians) - y * np.sin(radians)  # along the text (y points down)
    down = x * np.sin(radians) + y * np.cos(radians)
    width, height = line.upright_size
    return (round(across - width / 2), round(down - height / 2), width, height)


def make_block(lines: Sequence[OcrLine]) -> OcrBlock:
    left = min(line.box[0] for line in lines)
    top = min(line.box[1] for line in lines)
    right = max(line.box[0] + line.box[2] for line in lines)
    bottom = max(line.box[1] + line.box[3] for line in lines)
    return OcrBlock(
        " ".join(line.text for line in lines), (left, top, right - left, bottom - top), tuple(lines)
    )
