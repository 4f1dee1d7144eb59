"""Meme rendering: a template image, its text boxes and a caption in, an image out.

Plain functions, no Django and no Celery. Text fitting works like a careful
human would: try every way of breaking the caption into 1–3 lines (more only
when 3 would leave it unreadably small), size each to the largest font whose
ink, outline included, stays inside the box, and keep the split with the
largest font. Sizes are searched by estimating from widths measured once at a
reference size (widths are near-linear in size), then by an exact binary
search that only measures the few candidates that can still win.

Box semantics follow memegen's ``config.yml`` (see ``generation/layout.py``):
anchor and scale are fractions of the image, a rotated box is drawn upright,
turned counter-clockwise by ``angle`` degrees with its corners kept, and the
turned layer's top-left corner is placed at the anchor.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import Image, ImageColor, ImageDraw, ImageFont

from generation.layout import FONTS, TextBox, apply_style

# Bump when a change to this module changes pixels: it is part of every
# output file name, so cached renders from older code are never reused.
RENDERER_VERSION = 2

FONT_DIR = Path(__file__).resolve().parent.parent / "static" / "fonts"
# The shipped face with the widest coverage (Latin, Greek, Cyrillic): a box
# whose text its own face cannot draw is drawn in this one instead.
FALLBACK_FONT = "notosans"

MIN_WIDTH = 200  # pixels: narrower output leaves no room for a caption
MAX_WIDTH = 1600  # pixels: the cap on output width (the feed shows 800)
MAX_LINES = 3  # lines a caption is wrapped into when that reaches READABLE_SIZE
MAX_LINES_LONG = 6  # lines allowed when 3 lines would be smaller than READABLE_SIZE
# Font size floor in pixels at 800 px output width (scaled with width). The
# feed shows images about 400 CSS px wide on a phone, so 22 px becomes 11 CSS
# px (capitals ~7.5 CSS px tall): the smallest bold outlined text still read
# at a glance. See docs/rendering.md for the measured distribution.
READABLE_SIZE_AT_800 = 22
MIN_SIZE = 6  # pixels: below this no text is drawn legibly at all
MAX_SIZE_FRACTION = 0.125  # of image width: a one-word caption stays a caption, not a poster
REFERENCE_SIZE = 100  # pixels: the size at which word widths are measured once
LINE_PITCH_EM = 1.05  # baseline to baseline, in font sizes: tight as meme captions are
STROKE_EM = 0.06  # outline width in font sizes (at least 1 px)
PAD_X = 0.02  # fraction of the box width kept clear on each side
PAD_Y = 0.04  # fraction of the box height kept clear above and below

MARK_SIZE_FRACTION = 0.022  # of image width: 18 px at 800, legible but quiet
MARK_MARGIN_FRACTION = 0.012  # of image width, from the image's edges
MARK_POSITIONS = ("bottom-right", "bottom-left", "top-right", "top-left")
MARK_FONT = "thin"

# Encoding for the feed, measured on an 800×627 meme: WebP quality 80 keeps the
# outlined text crisp at ~29 KB; method 2 encodes in ~18 ms where method 4
# takes ~43 ms for 4% fewer bytes. JPEG (the fallback) at 85 is ~69 KB in ~4 ms.
WEBP_QUALITY = 80
WEBP_METHOD = 2
JPEG_QUALITY = 85
# Curly quotes and dashes are drawn when the face has them; these stand in
# only when it does not (and after accents are tried without their marks).
PLAIN_SUBSTITUTES = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": ",",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u2013": "-",
    "\u2014": "-",
    "\u2026": "...",
    "\u2022": "*",
    "\u00a0": " ",
}

# Growth factors (per side) tried, in order, for a box whose text would be
# drawn under the floor: a label box of 140×48 px cannot hold 26 characters
# legibly, and a slightly larger label reads better than an unreadable one.
GROWTH_STEPS = (1.15, 1.3, 1.5, 1.75, 2.0)

ImageFormat = Literal["webp", "jpeg"]
Rect = tuple[int, int, int, int]  # left, top, width, height in pixels
MarkPosition = Literal["bottom-right", "bottom-left", "top-right", "top-left"]


@dataclass(frozen=True)
class Rendered:
    image: Image.Image  # RGB
    font_sizes: list[int]  # pixels, one per box (0 for a blank box)
    overflow: int  # boxes with ink outside the box (or cut by the image edge)
    missing_glyphs: int  # characters drawn in a face that has no glyph for them (tofu)
    dropped_chars: int = 0  # characters no shipped face can draw (emoji), left out
    grown_boxes: int = 0  # boxes grown past their template rectangle to reach the floor size
    lines: tuple[tuple[str, ...], ...] = ()  # the lines drawn, per box
    mark_box: Rect | None = None  # where the AI-generated mark is, in pixels


@dataclass(frozen=True)
class Fit:
    """How one box's text is drawn: lines, face and size in pixels."""

    lines: tuple[str, ...]
    font: str
    size: int
    stroke: int
    pitch: int  # pixels from one baseline to the next


@dataclass(frozen=True)
class Laid:
    """One box with the fit of its text (None when blank) and the characters left out."""

    box: TextBox
    rect: Rect  # pixels: the box's own rectangle, or the one grown from it to reach the floor
    fit: Fit | None
    dropped: int
    grown: bool = False


# --- fonts -----------------------------------------------------------------


@lru_cache(maxsize=512)
def font_at(font: str, size: int) -> ImageFont.FreeTypeFont:
    """The face ``font`` (a key of ``FONTS``) at ``size`` pixels, loaded once."""
    return ImageFont.truetype(str(FONT_DIR / FONTS[font]), size=size)


@lru_cache(maxsize=8)
def font_coverage(font: str) -> frozenset[int]:
    """Code points the face has a glyph for."""
    with TTFont(str(FONT_DIR / FONTS[font]), lazy=True) as face:
        return frozenset(face.getBestCmap())


@lru_cache(maxsize=4096)
def reference_width(font: str, text: str) -> float:
    """Advance width of ``text`` in pixels at REFERENCE_SIZE."""
    return float(font_at(font, REFERENCE_SIZE).getlength(text))


def stroke_for(size: int) -> int:
    return max(1, round(size * STROKE_EM))


def outline_for(color: str) -> str:
    """Black outline around light text, white around dark: legible on any photo."""
    red, green, blue = ImageColor.getrgb(color)[:3]
    luminance = 0.299 * red + 0.587 * green + 0.114 * blue  # 0..255
    return "black" if luminance >= 100 else "white"


def readable_size(image_width: int) -> int:
    return max(MIN_SIZE, round(READABLE_SIZE_AT_800 * image_width / 800))


# --- text ------------------------------------------------------------------


def drawable_text(text: str, font: str) -> tuple[str, str, int]:
    """The text as it can be drawn, the face to draw it in and how many
    characters no shipped face has (left out rather than drawn as boxes)."""
    text = " ".join(unicodedata.normalize("NFC", text).split())
    own = font_coverage(font)
    if all(ord(char) in own for char in text):
        return text, font, 0
    if all(ord(char) in font_coverage(FALLBACK_FONT) for char in text):
        return text, FALLBACK_FONT, 0
    kept: list[str] = []
    dropped = 0
    for char in text:
        stand_in = _stand_in(char, own)
        if stand_in is None:
            dropped += unicodedata.category(char)[0] not in "CMZ"  # marks and joiners are not lost text
        else:
            kept.append(stand_in)
    return " ".join("".join(kept).split()), font, dropped


def _stand_in(char: str, coverage: frozenset[int]) -> str | None:
    if ord(char) in coverage:
        return char
    substitute = PLAIN_SUBSTITUTES.get(char)
    if substitute is not None:
        return substitute
    # An accented letter the face lacks is drawn as its base letter (é → e).
    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    if base and all(ord(c) in coverage for c in base):
        return base
    return None


def missing_glyphs(lines: Sequence[str], font: str) -> int:
    """Characters in ``lines`` the face would draw as a tofu box."""
    coverage = font_coverage(font)
    return sum(1 for line in lines for char in line if ord(char) not in coverage and not char.isspace())


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


# --- fitting ---------------------------------------------------------------


def measure(lines: Sequence[str], font: str, size: int) -> tuple[int, int]:
    """(width, height) in pixels of the ink of ``lines`` at ``size``, outline included."""
    face, stroke, pitch = font_at(font, size), stroke_for(size), line_pitch(size)
    boxes = [face.getbbox(line, anchor="ls", stroke_width=stroke) for line in lines]
    width = max(right - left for left, _, right, _ in boxes)
    top = min(index * pitch + box[1] for index, box in enumerate(boxes))
    bottom = max(index * pitch + box[3] for index, box in enumerate(boxes))
    return int(width), int(bottom - top)


def line_pitch(size: int) -> int:
    return max(1, round(size * LINE_PITCH_EM))


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


# --- drawing ---------------------------------------------------------------


def box_rect(box: TextBox, image_size: tuple[int, int]) -> Rect:
    """(left, top, width, height) of the box in pixels."""
    width, height = image_size
    return (
        round(box.anchor_x * width),
        round(box.anchor_y * height),
        max(1, round(box.scale_x * width)),
        max(1, round(box.scale_y * height)),
    )


def inner_room(rect: Rect) -> tuple[int, int]:
    _, _, width, height = rect
    return int(width * (1 - 2 * PAD_X)), int(height * (1 - 2 * PAD_Y))


def line_origins(fit: Fit, size: tuple[int, int], align: str) -> list[tuple[int, int]]:
    """Baseline-left origin of each line inside a box of ``size`` pixels, the
    ink block centred vertically and each line aligned horizontally."""
    face = font_at(fit.font, fit.size)
    boxes = [face.getbbox(line, anchor="ls", stroke_width=fit.stroke) for line in fit.lines]
    top = min(index * fit.pitch + box[1] for index, box in enumerate(boxes))
    bottom = max(index * fit.pitch + box[3] for index, box in enumerate(boxes))
    first_baseline = round((size[1] - (bottom - top)) / 2 - top)
    pad = round(size[0] * PAD_X)
    origins = []
    for index, (left, _, right, _) in enumerate(boxes):
        if align == "left":
            x = pad - left
        elif align == "right":
            x = size[0] - pad - right
        else:
            x = round((size[0] - (right - left)) / 2 - left)
        origins.append((int(x), first_baseline + index * fit.pitch))
    return origins


def ink_rect(fit: Fit, origins: Sequence[tuple[int, int]]) -> Rect:
    """(left, top, width, height) in pixels of the ink of lines drawn at ``origins``."""
    face = font_at(fit.font, fit.size)
    boxes = [
        (x + left, y + top, x + right, y + bottom)
        for line, (x, y) in zip(fit.lines, origins, strict=True)
        for left, top, right, bottom in [face.getbbox(line, anchor="ls", stroke_width=fit.stroke)]
    ]
    left, top = min(box[0] for box in boxes), min(box[1] for box in boxes)
    right, bottom = max(box[2] for box in boxes), max(box[3] for box in boxes)
    return int(left), int(top), int(right - left), int(bottom - top)


def contains(outer: Rect, inner: Rect) -> bool:
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[0] + inner[2] <= outer[0] + outer[2]
        and inner[1] + inner[3] <= outer[1] + outer[3]
    )


def draw_lines(draw: ImageDraw.ImageDraw, fit: Fit, origins: Sequence[tuple[int, int]], color: str) -> None:
    face, outline = font_at(fit.font, fit.size), outline_for(color)
    for line, origin in zip(fit.lines, origins, strict=True):
        draw.text(origin, line, color, face, anchor="ls", stroke_width=fit.stroke, stroke_fill=outline)


def drawn_ink(item: Laid) -> Rect | None:
    """Where a laid box's lines put ink, found on real pixels rather than by
    ``ink_rect``'s arithmetic (the tests and the fit check re-check with it):
    the lines drawn alone on a canvas with a margin wider than any glyph
    overshoots. In the box's own pixels, so outside the box is below 0 or past
    its size; None when nothing is inked."""
    assert item.fit is not None
    _, _, width, height = item.rect
    margin = item.fit.size * 2
    canvas = Image.new("L", (width + 2 * margin, height + 2 * margin), 0)
    origins = [(x + margin, y + margin) for x, y in line_origins(item.fit, (width, height), item.box.align)]
    draw_lines(ImageDraw.Draw(canvas), item.fit, origins, "white")
    ink = canvas.getbbox()
    if ink is None:
        return None
    return ink[0] - margin, ink[1] - margin, ink[2] - ink[0], ink[3] - ink[1]


def draw_box(image: Image.Image, box: TextBox, rect: Rect, fit: Fit) -> tuple[bool, Rect]:
    """Draw one box's text in ``rect``: whether all its ink landed inside the
    rectangle and the image, and where the ink is (pixels, image coordinates)."""
    left, top, width, height = rect
    origins = line_origins(fit, (width, height), box.align)
    whole_image = (0, 0, image.width, image.height)
    if not box.angle:
        shifted = [(x + left, y + top) for x, y in origins]
        draw_lines(ImageDraw.Draw(image), fit, shifted, box.color)
        ink = ink_rect(fit, shifted)
        return contains(rect, ink) and contains(whole_image, ink), ink
    layer = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw_lines(ImageDraw.Draw(layer), fit, origins, box.color)
    turned = layer.rotate(box.angle, resample=Image.Resampling.BICUBIC, expand=True)
    bounds = turned.getchannel("A").getbbox() or (0, 0, 0, 0)
    # memegen pastes the turned layer's corner at the anchor; a box near an
    # edge can then swing its text past the edge: nudge it back in, whole.
    left = min(max(left, -bounds[0]), image.width - bounds[2])
    top = min(max(top, -bounds[1]), image.height - bounds[3])
    image.paste(turned, (left, top), turned)
    inside = contains((0, 0, width, height), ink_rect(fit, origins))
    ink = (left + bounds[0], top + bounds[1], bounds[2] - bounds[0], bounds[3] - bounds[1])
    return inside and contains(whole_image, ink), ink


def mark_rect(image_size: tuple[int, int], position: str, pill: tuple[int, int]) -> Rect:
    margin = round(image_size[0] * MARK_MARGIN_FRACTION)
    x = margin if position.endswith("left") else image_size[0] - margin - pill[0]
    y = margin if position.startswith("top") else image_size[1] - margin - pill[1]
    return x, y, pill[0], pill[1]


def mark_corner(
    image_size: tuple[int, int], preferred: str, pill: tuple[int, int], ink: Sequence[Rect]
) -> str:
    """The preferred corner, unless the mark would cover text there and another
    corner is clear (then the first clear one, in MARK_POSITIONS order)."""
    order = [preferred, *[position for position in MARK_POSITIONS if position != preferred]]
    for position in order:
        if not any(overlaps(mark_rect(image_size, position, pill), text) for text in ink):
            return position
    return preferred


def draw_mark(image: Image.Image, position: str, text: str, avoid: Sequence[Rect] = ()) -> Rect | None:
    """A small "AI-generated" label on a translucent dark pill in a corner,
    moved to another corner when it would cover text in ``avoid``."""
    if position not in MARK_POSITIONS:
        raise ValueError(f"mark_position must be one of {', '.join(MARK_POSITIONS)}, not {position!r}")
    if not text:
        return None
    size = max(MIN_SIZE + 4, round(image.width * MARK_SIZE_FRACTION))
    face = font_at(MARK_FONT, size)
    text_left, text_top, text_right, text_bottom = face.getbbox(text, anchor="ls")
    pad_x, pad_y = round(size * 0.5), round(size * 0.3)
    pill = (int(text_right - text_left) + 2 * pad_x, int(text_bottom - text_top) + 2 * pad_y)
    x, y, _, _ = mark_rect(image.size, mark_corner(image.size, position, pill, avoid), pill)
    draw = ImageDraw.Draw(image, "RGBA")
    # Pillow's rectangle corners are inclusive: the pill covers exactly pill[0] × pill[1] pixels.
    draw.rounded_rectangle((x, y, x + pill[0] - 1, y + pill[1] - 1), radius=pill[1] // 2, fill=(0, 0, 0, 120))
    origin = (x + pad_x - text_left, y + pad_y - text_top)
    draw.text(origin, text, fill=(255, 255, 255, 235), font=face, anchor="ls")
    return x, y, pill[0], pill[1]


def mark_position_for(boxes: Sequence[TextBox]) -> MarkPosition:
    """The corner that hides the least text (by box area in the corner's
    tenth of the image), preferring bottom-right: a default for importers."""
    corners: dict[MarkPosition, tuple[float, float]] = {
        "bottom-right": (0.8, 0.9),
        "bottom-left": (0.0, 0.9),
        "top-right": (0.8, 0.0),
        "top-left": (0.0, 0.0),
    }

    def overlap(corner: tuple[float, float]) -> float:
        x, y = corner
        return sum(
            max(0.0, min(box.anchor_x + box.scale_x, x + 0.2) - max(box.anchor_x, x))
            * max(0.0, min(box.anchor_y + box.scale_y, y + 0.1) - max(box.anchor_y, y))
            for box in boxes
        )

    return min(corners, key=lambda name: overlap(corners[name]))


# --- the pipeline's entry points -------------------------------------------


def output_size(template_size: tuple[int, int], width: int) -> tuple[int, int]:
    if width < MIN_WIDTH:
        raise ValueError(f"width must be at least {MIN_WIDTH} pixels, not {width}")
    width = min(width, MAX_WIDTH)
    return width, max(1, round(template_size[1] * width / template_size[0]))


def resized_template(template_image: Image.Image, width: int) -> Image.Image:
    """A fresh RGB copy of the template at ``width`` pixels (the caller's image is never drawn on)."""
    size = output_size(template_image.size, width)
    image = template_image.convert("RGB") if template_image.mode != "RGB" else template_image
    if image.size == size:
        return image.copy()
    return image.resize(size, Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def load_template(path: Path, width: int = 800) -> Image.Image:
    """A template file decoded and resized once; ``render_meme`` copies it before drawing."""
    with Image.open(path) as image:
        return resized_template(image, width)


def layout_boxes(image_size: tuple[int, int], boxes: Sequence[TextBox], texts: Sequence[str]) -> list[Laid]:
    """Styled, drawable text and its fit for every box (blank boxes get no fit)."""
    if len(texts) > len(boxes):
        raise ValueError(f"{len(texts)} texts for a template with {len(boxes)} text boxes")
    floor = readable_size(image_size[0])
    max_size = max(MIN_SIZE, round(image_size[0] * MAX_SIZE_FRACTION))
    rects = [box_rect(box, image_size) for box in boxes]
    laid = []
    for index, (box, text) in enumerate(zip(boxes, [*texts, *[""] * (len(boxes) - len(texts))], strict=True)):
        styled, font, dropped = drawable_text(apply_style(text, box.style), box.font)
        fit = fit_text(styled, font, inner_room(rects[index]), max_size, floor)
        item = Laid(box, rects[index], fit, dropped)
        if fit is not None and fit.size < floor:
            others = rects[:index] + rects[index + 1 :]
            item = grown_to_floor(item, styled, image_size, others, max_size, floor)
        laid.append(item)
    return laid


def grown_to_floor(
    item: Laid, text: str, image_size: tuple[int, int], others: Sequence[Rect], max_size: int, floor: int
) -> Laid:
    """The box grown about its centre (kept inside the image, clear of the other
    boxes) just enough for its text to reach ``floor`` pixels, or as far as it can."""
    assert item.fit is not None
    best = item
    for factor in GROWTH_STEPS:
        rect = grown_rect(item.rect, factor, image_size)
        if any(overlaps(rect, other) for other in others):
            break
        fit = fit_text(text, item.fit.font, inner_room(rect), max_size, floor)
        if fit is not None and best.fit is not None and fit.size > best.fit.size:
            best = Laid(item.box, rect, fit, item.dropped, grown=True)
        if best.fit is not None and best.fit.size >= floor:
            break
    return best


def grown_rect(rect: Rect, factor: float, image_size: tuple[int, int]) -> Rect:
    left, top, width, height = rect
    new_width = min(image_size[0], round(width * factor))
    new_height = min(image_size[1], round(height * factor))
    new_left = min(max(0, left - (new_width - width) // 2), image_size[0] - new_width)
    new_top = min(max(0, top - (new_height - height) // 2), image_size[1] - new_height)
    return new_left, new_top, new_width, new_height


def overlaps(first: Rect, second: Rect) -> bool:
    return (
        first[0] < second[0] + second[2]
        and second[0] < first[0] + first[2]
        and first[1] < second[1] + second[3]
        and second[1] < first[1] + first[3]
    )


def render_meme(
    template_image: Image.Image,
    boxes: list[TextBox],
    texts: list[str],
    *,
    width: int = 800,
    mark_position: str = "bottom-right",
    mark_text: str = "AI-generated",
) -> Rendered:
    """Draw ``texts`` (one per box; fewer leaves the last boxes blank) on the template."""
    if mark_position not in MARK_POSITIONS:
        raise ValueError(f"mark_position must be one of {', '.join(MARK_POSITIONS)}, not {mark_position!r}")
    laid = layout_boxes(output_size(template_image.size, width), boxes, texts)
    image = resized_template(template_image, width)
    drawn = [(item, draw_box(image, item.box, item.rect, item.fit)) for item in laid if item.fit]
    mark_box = draw_mark(image, mark_position, mark_text, avoid=[ink for _, (_, ink) in drawn])
    return Rendered(
        image=image,
        font_sizes=[item.fit.size if item.fit else 0 for item in laid],
        overflow=sum(1 for _, (inside, _) in drawn if not inside),
        missing_glyphs=sum(missing_glyphs(item.fit.lines, item.fit.font) for item in laid if item.fit),
        dropped_chars=sum(item.dropped for item in laid),
        grown_boxes=sum(item.grown for item in laid),
        lines=tuple(item.fit.lines if item.fit else () for item in laid),
        mark_box=mark_box,
    )


def encode_meme(image: Image.Image, fmt: ImageFormat = "webp") -> bytes:
    """Encode for the feed; same pixels give the same bytes (no metadata, fixed settings)."""
    buffer = io.BytesIO()
    if fmt == "webp":
        image.save(buffer, "WEBP", quality=WEBP_QUALITY, method=WEBP_METHOD)
    elif fmt == "jpeg":
        image.save(buffer, "JPEG", quality=JPEG_QUALITY, optimize=True)
    else:
        raise ValueError(f"format must be 'webp' or 'jpeg', not {fmt!r}")
    return buffer.getvalue()


def render_key(
    template_sha256: str,
    boxes: Sequence[TextBox],
    texts: Sequence[str],
    width: int,
    fmt: str,
    mark_position: str,
) -> str:
    """Hex SHA-256 of everything that decides the output's bytes: its file name,
    so a retried task finds the file it already wrote."""
    payload = {
        "renderer": RENDERER_VERSION,
        "template": template_sha256,
        "boxes": [box.to_dict() for box in boxes],
        "texts": list(texts),
        "width": min(width, MAX_WIDTH),
        "format": fmt,
        "mark": mark_position,
    }
    canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
