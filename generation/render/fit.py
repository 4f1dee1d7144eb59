"""Fitting a caption into a box: small pure functions from words to lines and
a size in pixels.

Text fitting works like a careful human would: try every way of breaking the
caption into 1–3 lines (more only when 3 would leave it unreadably small),
size each to the largest font whose ink, outline included, stays inside the
box, and keep the split with the largest font. Sizes are searched by
estimating from widths measured once at a reference size (widths are
near-linear in size), then by an exact binary search that only measures the
few candidates that can still win.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from generation.render.fonts import font_at

MAX_LINES = 3  # lines a caption is wrapped into when that reaches the readable size
MAX_LINES_LONG = 6  # lines allowed when 3 lines would be smaller than the readable size
MIN_SIZE = 6  # pixels: below this no text is drawn legibly at all
REFERENCE_SIZE = 100  # pixels: the size at which word widths are measured once
LINE_PITCH_EM = 1.05  # baseline to baseline, in font sizes: tight as meme captions are
STROKE_EM = 0.06  # outline width in font sizes (at least 1 px)


@dataclass(frozen=True)
class Fit:
    """How one box's text is drawn: lines, face and size in pixels."""

    lines: tuple[str, ...]
    font: str
    size: int
    stroke: int
    pitch: int  # pixels from one baseline to the next


@lru_cache(maxsize=4096)
def reference_width(font: str, text: str) -> float:
    """Advance width of ``text`` in pixels at REFERENCE_SIZE."""
    return float(font_at(font, REFERENCE_SIZE).getlength(text))


def stroke_for(size: int) -> int:
    return max(1, round(size * STROKE_EM))


def line_pitch(size: int) -> int:
    return max(1, round(size * LINE_PITCH_EM))


# --- line breaks -------------------------------------------------------------


def balanced_split(widths: Sequence[float], space: float, count: int) -> tuple[int, ...]:
    """Word indices where lines 2..count start, minimising the widest line.

    ``widths`` are the words' widths and ``space`` the space's, in any one
    unit. Dynamic programming over (words placed, lines used): words ≤ ~100.
    """
    prefix = [0.0]
    for width in widths:
        prefix.append(prefix[-1] + width)

    def line_width(start: int, end: int) -> float:
        return prefix[end] - prefix[start] + space * (end - start - 1)

    total = len(widths)
    # best[k][end]: (widest line, break points) placing words[:end] on k lines
    best: list[dict[int, tuple[float, tuple[int, ...]]]] = [{0: (0.0, ())}]
    for lines in range(1, count + 1):
        row: dict[int, tuple[float, tuple[int, ...]]] = {}
        for end in range(lines, total - (count - lines) + 1):
            options = (
                (max(widest, line_width(start, end)), breaks + ((start,) if start else ()))
                for start, (widest, breaks) in best[lines - 1].items()
                if start < end
            )
            row[end] = min(options)
        best.append(row)
    return best[count][total][1]


def wrap(words: Sequence[str], breaks: Sequence[int]) -> tuple[str, ...]:
    edges = [0, *breaks, len(words)]
    return tuple(" ".join(words[start:end]) for start, end in itertools.pairwise(edges))


def break_long_words(words: Sequence[str], font: str, max_width: float) -> list[str]:
    """Cut words wider than ``max_width`` (pixels at REFERENCE_SIZE) into
    hyphenated pieces: a 40-letter "AAAAAND" must not shrink a whole caption."""
    pieces: list[str] = []
    for word in words:
        parts = min(len(word), int(reference_width(font, word) // max_width) + 1)
        if parts <= 1:
            pieces.append(word)
            continue
        step = -(-len(word) // parts)  # characters per piece, rounded up
        chunks = [word[start : start + step] for start in range(0, len(word), step)]
        pieces.extend([chunk + "-" for chunk in chunks[:-1]] + [chunks[-1]])
    return pieces


# --- sizes -------------------------------------------------------------------


def measure(lines: Sequence[str], font: str, size: int) -> tuple[int, int]:
    """(width, height) in pixels of the ink of ``lines`` at ``size``, outline included."""
    face, stroke, pitch = font_at(font, size), stroke_for(size), line_pitch(size)
    boxes = [face.getbbox(line, anchor="ls", stroke_width=stroke) for line in lines]
    width = max(right - left for left, _, right, _ in boxes)
    top = min(index * pitch + box[1] for index, box in enumerate(boxes))
    bottom = max(index * pitch + box[3] for index, box in enumerate(boxes))
    return int(width), int(bottom - top)


def largest_fitting_size(lines: Sequence[str], font: str, room: tuple[int, int], high: int) -> int:
    """Largest size in [MIN_SIZE - 1, high] pixels whose ink fits ``room``
    (MIN_SIZE - 1 when none does). Binary search: fit is monotone in size."""
    low = MIN_SIZE - 1
    while low < high:
        middle = (low + high + 1) // 2
        width, height = measure(lines, font, middle)
        if width <= room[0] and height <= room[1]:
            low = middle
        else:
            high = middle - 1
    return low


def estimated_size(lines: Sequence[str], font: str, room: tuple[int, int]) -> float:
    """Size in pixels the lines would fit at, from reference widths (near-linear in size)."""
    widest = max(reference_width(font, line) for line in lines) / REFERENCE_SIZE  # pixels per pixel of size
    by_width = room[0] / (widest * (1 + 2 * STROKE_EM) + 1e-9)
    # Capital-height ink plus outline for the first line, one pitch per further line.
    by_height = room[1] / (0.8 + 2 * STROKE_EM + LINE_PITCH_EM * (len(lines) - 1))
    return min(by_width, by_height)


# --- the fit -----------------------------------------------------------------


def fit_text(text: str, font: str, room: tuple[int, int], max_size: int, floor: int) -> Fit | None:
    """The line split and size that draw ``text`` largest inside ``room``
    (width, height in pixels), or None for blank text."""
    words = text.split()
    if not words or min(room) < MIN_SIZE:
        return None
    words = break_long_words(words, font, room[0] * REFERENCE_SIZE / max(floor, MIN_SIZE))
    best = _best_split(words, font, room, max_size, MAX_LINES)
    if best[0] < floor and len(words) > MAX_LINES:
        best = max(best, _best_split(words, font, room, max_size, MAX_LINES_LONG))
    size, lines = best[0], best[1]
    size = max(size, MIN_SIZE)
    return Fit(lines, font, size, stroke_for(size), line_pitch(size))


def _best_split(
    words: Sequence[str], font: str, room: tuple[int, int], max_size: int, max_lines: int
) -> tuple[int, tuple[str, ...]]:
    widths = [reference_width(font, word) for word in words]
    space = reference_width(font, " ")
    candidates = []
    for count in range(1, min(max_lines, len(words)) + 1):
        lines = wrap(words, balanced_split(widths, space, count))
        candidates.append((estimated_size(lines, font, room), -count, lines))
    # Most promising first; stop once no remaining estimate (with 10% slack for
    # kerning and outline) could beat an exact size already found.
    best: tuple[int, tuple[str, ...]] = (MIN_SIZE - 1, candidates[0][2])
    for estimate, _, lines in sorted(candidates, reverse=True):
        high = min(max_size, int(estimate * 1.1) + 2)
        if high <= best[0]:
            break
        size = largest_fitting_size(lines, font, room, high)
        if size > best[0]:
            best = (size, lines)
    return best
