"""Drawing a laid-out box's lines on the image: upright, or on a turned layer
for a rotated box, with a dark outline around light text and a light one
around dark text.

A rotated box is drawn upright, turned counter-clockwise by ``angle`` degrees
with its corners kept, and the turned layer's top-left corner is placed at
the anchor (memegen's semantics).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageColor, ImageDraw

from generation.layout import TextBox
from generation.render.boxes import PAD_X, Laid
from generation.render.fit import Fit
from generation.render.fonts import font_at
from generation.render.geometry import Rect, contains


def outline_for(color: str) -> str:
    """Black outline around light text, white around dark: legible on any photo."""
    red, green, blue = ImageColor.getrgb(color)[:3]
    luminance = 0.299 * red + 0.587 * green + 0.114 * blue  # 0..255
    return "black" if luminance >= 100 else "white"


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
