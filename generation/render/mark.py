"""The "AI-generated" mark every meme carries: a small label on a translucent
dark pill, in the template's corner when that is clear of text, else at the
nearest clear spot along the picture's edges, else on a thin band added
below the picture. It never covers caption text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from generation.layout import TextBox
from generation.render.canvas import with_band
from generation.render.fit import MIN_SIZE
from generation.render.fonts import font_at
from generation.render.geometry import Rect, contains, grown, overlaps

MARK_SIZE_FRACTION = 0.022  # of image width: 18 px at 800, legible but quiet
MARK_MARGIN_FRACTION = 0.012  # of image width: from the image's edges, and kept clear around text
MARK_POSITIONS = ("bottom-right", "bottom-left", "top-right", "top-left")
MARK_FONT = "thin"
BAND_COLOR = (24, 24, 24)  # the strip below a picture with no clear spot: near black, like a caption bar

MarkPosition = Literal["bottom-right", "bottom-left", "top-right", "top-left"]


@dataclass(frozen=True)
class Pill:
    """The label's face and the pill around it, sized for an image width."""

    text: str
    face: ImageFont.FreeTypeFont
    width: int  # pixels
    height: int  # pixels
    text_offset: tuple[int, int]  # pixels from the pill's top-left corner to the text's baseline-left origin


@dataclass(frozen=True)
class Marked:
    image: Image.Image  # the picture, taller by ``band`` when the mark went below it
    box: Rect | None  # the pill, pixels in ``image``; None for no mark
    band: int = 0  # pixels added below the picture


def check_mark_position(position: str) -> None:
    if position not in MARK_POSITIONS:
        raise ValueError(f"mark_position must be one of {', '.join(MARK_POSITIONS)}, not {position!r}")


def pill_for(image_width: int, text: str) -> Pill:
    size = max(MIN_SIZE + 4, round(image_width * MARK_SIZE_FRACTION))
    face = font_at(MARK_FONT, size)
    left, top, right, bottom = face.getbbox(text, anchor="ls")
    pad_x, pad_y = round(size * 0.5), round(size * 0.3)
    offset = (int(pad_x - left), int(pad_y - top))
    return Pill(text, face, int(right - left) + 2 * pad_x, int(bottom - top) + 2 * pad_y, offset)


def corner_rect(image_size: tuple[int, int], position: str, pill: Pill) -> Rect:
    margin = round(image_size[0] * MARK_MARGIN_FRACTION)
    x = margin if position.endswith("left") else image_size[0] - margin - pill.width
    y = margin if position.startswith("top") else image_size[1] - margin - pill.height
    return x, y, pill.width, pill.height


def edge_spots(image_size: tuple[int, int], preferred: str, pill: Pill) -> list[Rect]:
    """Every place the mark may go inside the picture, best first: the preferred
    corner, the other corners (in MARK_POSITIONS order), then spots along the
    four edges one margin apart, nearest the preferred corner first."""
    width, height = image_size
    margin = max(1, round(width * MARK_MARGIN_FRACTION))
    corners = [corner_rect(image_size, position, pill) for position in (preferred, *MARK_POSITIONS)]
    xs = range(margin, width - margin - pill.width + 1, margin)
    ys = range(margin, height - margin - pill.height + 1, margin)
    right, bottom = width - margin - pill.width, height - margin - pill.height
    edges = {(x, y) for x in xs for y in (margin, bottom)} | {(x, y) for x in (margin, right) for y in ys}
    home = corners[0]
    nearest = sorted(edges, key=lambda spot: ((spot[0] - home[0]) ** 2 + (spot[1] - home[1]) ** 2, spot))
    spots = list(dict.fromkeys([*corners, *[(x, y, pill.width, pill.height) for x, y in nearest]]))
    # A picture narrower or shorter than the pill and its margins has no spot inside.
    return [spot for spot in spots if contains((0, 0, width, height), spot)]


def clear_spot(image_size: tuple[int, int], preferred: str, pill: Pill, ink: Sequence[Rect]) -> Rect | None:
    """The first spot of ``edge_spots`` at least a margin away from every
    rectangle of text ink, or None when the picture has none."""
    margin = round(image_size[0] * MARK_MARGIN_FRACTION)
    keep_clear = [grown(rect, margin) for rect in ink]
    for spot in edge_spots(image_size, preferred, pill):
        if not any(overlaps(spot, rect) for rect in keep_clear):
            return spot
    return None


def band_spot(image_size: tuple[int, int], preferred: str, pill: Pill) -> tuple[int, Rect]:
    """The height of a band below the picture that holds the pill, and where
    the pill goes on it (on the preferred corner's side)."""
    margin = round(image_size[0] * MARK_MARGIN_FRACTION)
    band = pill.height + margin  # half a margin above and below the pill: thin
    x, _, _, _ = corner_rect(image_size, preferred, pill)
    return band, (x, image_size[1] + margin // 2, pill.width, pill.height)


def draw_pill(image: Image.Image, spot: Rect, pill: Pill) -> None:
    x, y, width, height = spot
    draw = ImageDraw.Draw(image, "RGBA")
    # Pillow's rectangle corners are inclusive: the pill covers exactly width × height pixels.
    draw.rounded_rectangle((x, y, x + width - 1, y + height - 1), radius=height // 2, fill=(0, 0, 0, 120))
    origin = (x + pill.text_offset[0], y + pill.text_offset[1])
    draw.text(origin, pill.text, fill=(255, 255, 255, 235), font=pill.face, anchor="ls")


def draw_mark(image: Image.Image, position: str, text: str, avoid: Sequence[Rect] = ()) -> Marked:
    """The image with the mark drawn where it covers none of the text ink in
    ``avoid`` (pixel rectangles): inside the picture when any spot there is
    clear, else on a band added below it (the picture keeps its coordinates)."""
    check_mark_position(position)
    if not text:
        return Marked(image, None)
    pill = pill_for(image.width, text)
    spot = clear_spot(image.size, position, pill, avoid)
    band = 0
    if spot is None:
        band, spot = band_spot(image.size, position, pill)
        image = with_band(image, band, BAND_COLOR)
    draw_pill(image, spot, pill)
    return Marked(image, spot, band)


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
