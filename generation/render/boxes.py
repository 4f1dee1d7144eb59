"""Laying out a template's boxes at an output size: each box's rectangle in
pixels, its styled text fitted inside, and a box grown past its rectangle
when its text would otherwise be drawn under the readable size.

Box semantics follow memegen's ``config.yml`` (see ``generation/layout.py``):
anchor and scale are fractions of the image.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generation.layout import TextBox, apply_style
from generation.render.fit import MIN_SIZE, Fit, fit_text
from generation.render.fonts import drawable_text
from generation.render.geometry import Rect, overlaps

# Font size floor in pixels at 800 px output width (scaled with width). The
# feed shows images about 400 CSS px wide on a phone, so 22 px becomes 11 CSS
# px (capitals ~7.5 CSS px tall): the smallest bold outlined text still read
# at a glance. See docs/rendering.md for the measured distribution.
READABLE_SIZE_AT_800 = 22
MAX_SIZE_FRACTION = 0.125  # of image width: a one-word caption stays a caption, not a poster
PAD_X = 0.02  # fraction of the box width kept clear on each side
PAD_Y = 0.04  # fraction of the box height kept clear above and below
# Growth factors (per side) tried, in order, for a box whose text would be
# drawn under the floor: a label box of 140×48 px cannot hold 26 characters
# legibly, and a slightly larger label reads better than an unreadable one.
GROWTH_STEPS = (1.15, 1.3, 1.5, 1.75, 2.0)


@dataclass(frozen=True)
class Laid:
    """One box with the fit of its text (None when blank) and the characters left out."""

    box: TextBox
    rect: Rect  # pixels: the box's own rectangle, or the one grown from it to reach the floor
    fit: Fit | None
    dropped: int
    grown: bool = False


def readable_size(image_width: int) -> int:
    return max(MIN_SIZE, round(READABLE_SIZE_AT_800 * image_width / 800))


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
