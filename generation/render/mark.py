"""The "AI-generated" mark every meme carries: a small label on a translucent
dark pill in a corner, moved to another corner rather than cover text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from PIL import Image, ImageDraw

from generation.layout import TextBox
from generation.render.fit import MIN_SIZE
from generation.render.fonts import font_at
from generation.render.geometry import Rect, overlaps

MARK_SIZE_FRACTION = 0.022  # of image width: 18 px at 800, legible but quiet
MARK_MARGIN_FRACTION = 0.012  # of image width, from the image's edges
MARK_POSITIONS = ("bottom-right", "bottom-left", "top-right", "top-left")
MARK_FONT = "thin"

MarkPosition = Literal["bottom-right", "bottom-left", "top-right", "top-left"]


def check_mark_position(position: str) -> None:
    if position not in MARK_POSITIONS:
        raise ValueError(f"mark_position must be one of {', '.join(MARK_POSITIONS)}, not {position!r}")


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
    check_mark_position(position)
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
