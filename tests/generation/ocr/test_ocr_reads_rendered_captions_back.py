"""Captions as memes really look (white letters with a black outline over a
photo, black text on white, turned boxes) are read back nearly character for
character, line by line with boxes and confidences."""

import math
import shutil

import pytest

from generation.ocr import OcrLine, read_blocks, read_text
from generation.ocr.metrics import edit_distance
from generation.render import Laid, layout_boxes, render_meme
from tests.golden.templates import template

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Debian's tesseract-ocr")


def text_in_boxes(lines: list[OcrLine], laid: list[Laid]) -> str:
    """Words read inside the caption boxes (a turned box: its turned bounds),
    sorted: side-by-side boxes read in either order, and the picture's own
    shapes that OCR reads outside the boxes are not the caption."""
    words = []
    for line in lines:
        x, y = line.box[0] + line.box[2] / 2, line.box[1] + line.box[3] / 2
        for item in laid:
            left, top, width, height = item.rect
            radians = math.radians(item.box.angle)
            turned_w = abs(width * math.cos(radians)) + abs(height * math.sin(radians))
            turned_h = abs(width * math.sin(radians)) + abs(height * math.cos(radians))
            if item.fit and left <= x <= left + turned_w and top <= y <= top + turned_h:
                words += line.text.split()
                break
    return " ".join(sorted(words))


@pytest.mark.parametrize(
    ("key", "texts"),
    [
        ("gone", ["when the tests pass", "aaaand the build is gone"]),  # white on a busy photo
        ("drake", ["writing documentation", "reading the source code"]),
        ("ds", ["tabs", "spaces"]),  # black text on white paper, turned 10 and 12.5 degrees
    ],
)
def test_the_caption_reads_back_with_few_errors(key: str, texts: list[str]) -> None:
    image, boxes = template(key)
    rendered = render_meme(image, list(boxes), texts, width=800)
    laid = layout_boxes(rendered.image.size, list(boxes), texts)
    want = " ".join(sorted(" ".join(" ".join(lines) for lines in rendered.lines).split()))
    got = text_in_boxes(read_text(rendered.image), laid)
    assert edit_distance(want, got) <= 0.1 * len(want), (want, got)


def test_lines_come_with_boxes_where_the_text_is_and_confidences() -> None:
    image, boxes = template("gone")
    rendered = render_meme(image, list(boxes), ["top text", "bottom text"], width=800, mark_text="")
    laid = layout_boxes(rendered.image.size, list(boxes), ["top text", "bottom text"])
    lines = read_text(rendered.image)
    assert [line.text for line in lines] == ["TOP TEXT", "BOTTOM TEXT"]
    for line, item in zip(lines, laid, strict=True):
        left, top, width, height = item.rect
        x, y = line.box[0] + line.box[2] / 2, line.box[1] + line.box[3] / 2
        assert left <= x <= left + width and top <= y <= top + height
        assert 0 <= line.confidence <= 100


def test_the_lines_of_one_caption_form_one_block() -> None:
    image, boxes = template("gone")
    texts = ["one does not simply walk into mordor without a plan", "nope"]
    rendered = render_meme(image, list(boxes), texts, width=800, mark_text="")
    blocks = read_blocks(rendered.image)
    assert len(blocks) == 2
    assert len(blocks[0].lines) == len(rendered.lines[0]) >= 2
    assert "MORDOR" in blocks[0].text and blocks[1].text == "NOPE"


def test_an_image_without_text_reads_as_nothing() -> None:
    image, _ = template("gone")
    assert read_text(image) == []
