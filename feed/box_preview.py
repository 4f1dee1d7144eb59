"""The box editor's live preview: a request (JSON: the image's size, unsaved
boxes, sample texts) checked into the renderer's terms, and its answer (the
text as the renderer draws it, on a transparent canvas, with how it fitted)."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from typing import Any

from generation.images import MAX_ASPECT, MAX_SIDE, MIN_SIDE
from generation.layout import LayoutError, TextBox, parse_boxes
from generation.render import MARK_POSITIONS
from generation.render.preview import text_overlay
from memesite.parsers import TooDeep, load_json

MAX_SAMPLE_CHARS = 300  # characters of sample text per box


class PreviewRefused(ValueError):
    """A preview request that cannot be drawn; ``problems`` says why, one per line."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class PreviewRequest:
    size: tuple[int, int]  # the template image's pixels
    boxes: list[TextBox]
    texts: list[str]
    mark_position: str


def preview_request(body: bytes) -> PreviewRequest:
    """Check what the editor sent: every problem with the boxes at once."""
    try:
        payload = load_json(body)  # the site's one limit on nesting (memesite.parsers)
    except TooDeep as error:
        raise PreviewRefused([str(error)]) from None
    except ValueError:
        raise PreviewRefused(["send the boxes as JSON"]) from None
    if not isinstance(payload, dict):
        raise PreviewRefused(["send a JSON object"])
    try:
        boxes = parse_boxes(payload.get("boxes"))
    except LayoutError as error:
        raise PreviewRefused(error.problems) from None
    return PreviewRequest(
        size=_size(payload.get("width"), payload.get("height")),
        boxes=boxes,
        texts=_texts(payload.get("texts"), len(boxes)),
        mark_position=_mark_position(payload.get("mark_position")),
    )


def preview(request: PreviewRequest, width: int) -> dict[str, Any]:
    """The editor's answer: the overlay as a PNG data URL, ``width`` pixels wide,
    and the font size each box's text got (pixels at that width; 0: blank box)."""
    overlay, report = text_overlay(
        request.size, request.boxes, request.texts, width=width, mark_position=request.mark_position
    )
    buffer = io.BytesIO()
    overlay.save(buffer, "PNG")
    return {
        "image": "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii"),
        "width": overlay.width,
        "font_sizes": report.font_sizes,
        "overflow": report.overflow,
        "grown_boxes": report.grown_boxes,
    }


def _size(width: Any, height: Any) -> tuple[int, int]:
    sides = (width, height)
    if not all(isinstance(side, int) and not isinstance(side, bool) for side in sides):
        raise PreviewRefused(["width and height must be whole numbers of pixels"])
    if not all(MIN_SIDE <= side <= MAX_SIDE for side in sides):
        raise PreviewRefused([f"width and height must be between {MIN_SIDE} and {MAX_SIDE} pixels"])
    if max(width / height, height / width) > MAX_ASPECT:
        raise PreviewRefused([f"one side may be at most {MAX_ASPECT:g} times the other"])
    return width, height


def _texts(texts: Any, box_count: int) -> list[str]:
    if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
        raise PreviewRefused(["texts must be a list of texts, one per box"])
    if len(texts) > box_count:
        raise PreviewRefused([f"{len(texts)} texts for {box_count} boxes"])
    if any(len(text) > MAX_SAMPLE_CHARS for text in texts):
        raise PreviewRefused([f"a sample text may be at most {MAX_SAMPLE_CHARS} characters"])
    return texts


def _mark_position(position: Any) -> str:
    if position not in MARK_POSITIONS:
        raise PreviewRefused([f"mark_position must be one of {', '.join(MARK_POSITIONS)}"])
    return str(position)
