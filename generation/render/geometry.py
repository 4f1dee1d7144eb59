"""Rectangles in pixels, and the two questions asked of them."""

from __future__ import annotations

Rect = tuple[int, int, int, int]  # left, top, width, height in pixels


def contains(outer: Rect, inner: Rect) -> bool:
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[0] + inner[2] <= outer[0] + outer[2]
        and inner[1] + inner[3] <= outer[1] + outer[3]
    )


def overlaps(first: Rect, second: Rect) -> bool:
    return (
        first[0] < second[0] + second[2]
        and second[0] < first[0] + first[2]
        and first[1] < second[1] + second[3]
        and second[1] < first[1] + first[3]
    )


def grown(rect: Rect, margin: int) -> Rect:
    """``rect`` with ``margin`` pixels added on every side."""
    return rect[0] - margin, rect[1] - margin, rect[2] + 2 * margin, rect[3] + 2 * margin
