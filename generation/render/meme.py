"""A whole meme: lay out every box, draw its text on a fresh copy of the
template, label it as AI-generated, and report how well the text fitted."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from generation.layout import TextBox
from generation.render.boxes import layout_boxes
from generation.render.canvas import output_size, resized_template
from generation.render.draw import draw_box
from generation.render.fonts import missing_glyphs
from generation.render.geometry import Rect
from generation.render.mark import check_mark_position, draw_mark


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
    band: int = 0  # pixels added below the picture to hold the mark when no spot on it was clear of text


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
    check_mark_position(mark_position)
    laid = layout_boxes(output_size(template_image.size, width), boxes, texts)
    image = resized_template(template_image, width)
    drawn = [(item, draw_box(image, item.box, item.rect, item.fit)) for item in laid if item.fit]
    marked = draw_mark(image, mark_position, mark_text, avoid=[ink for _, (_, ink) in drawn])
    return Rendered(
        image=marked.image,
        font_sizes=[item.fit.size if item.fit else 0 for item in laid],
        overflow=sum(1 for _, (inside, _) in drawn if not inside),
        missing_glyphs=sum(missing_glyphs(item.fit.lines, item.fit.font) for item in laid if item.fit),
        dropped_chars=sum(item.dropped for item in laid),
        grown_boxes=sum(item.grown for item in laid),
        lines=tuple(item.fit.lines if item.fit else () for item in laid),
        mark_box=marked.box,
        band=marked.band,
    )
