"""Boxes in image pixels, and how much two of them share."""

from __future__ import annotations

Box = tuple[int, int, int, int]  # left, top, width, height in image pixels


def overlap_ratio(first: Box, second: Box) -> float:
    """Intersection area over the smaller box's area."""
    width = min(first[0] + first[2], second[0] + second[2]) - max(first[0], second[0])
    height = min(first[1] + first[3], second[1] + second[3]) - max(first[1], second[1])
    if width <= 0 or height <= 0:
        return 0.0
    smaller = min(first[2] * first[3], second[2] * second[3])
    return width * height / max(smaller, 1)


def area_ratio(first: Box, second: Box) -> float:
    """The smaller box's area over the larger's."""
    areas = sorted((first[2] * first[3], second[2] * second[3]))
    return areas[0] / max(areas[1], 1)


def vertical_share(first: Box, second: Box) -> float:
    """Rows two boxes share, over the taller box's height: a one-line region
    beside a two-line one is not on the same row as all of it."""
    shared = min(first[1] + first[3], second[1] + second[3]) - max(first[1], second[1])
    return max(0, shared) / max(1, first[3], second[3])
