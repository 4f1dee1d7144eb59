"""A captioned meme becomes a blank template: one box per block of text where
the text was (fractions of the image), the letters and outlines painted out so
the picture underneath comes back, and the text read kept as an example caption."""

import shutil

import numpy as np
import pytest

from generation.blank import make_blank_template
from generation.layout import parse_boxes
from generation.render import render_meme
from tests.golden.templates import template

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Debian's tesseract-ocr")


def captioned(key: str, texts: list[str]) -> tuple[np.ndarray, np.ndarray, object]:
    image, boxes = template(key)
    clean = image.resize((800, round(image.height * 800 / image.width)))
    meme = render_meme(clean, list(boxes), texts, width=800, mark_text="").image
    return np.asarray(clean, dtype=float), np.asarray(meme, dtype=float), meme


def psnr(first: np.ndarray, second: np.ndarray) -> float:
    """Peak signal-to-noise ratio in dB (higher: closer)."""
    return float(10 * np.log10(255**2 / max(((first - second) ** 2).mean(), 1e-9)))


def test_each_caption_becomes_a_box_where_it_was_with_its_text() -> None:
    _, _, meme = captioned("drake", ["writing tests after", "writing tests first"])
    blank = make_blank_template(meme)  # type: ignore[arg-type]
    assert blank.texts == ["WRITING TESTS AFTER", "WRITING TESTS FIRST"]
    top, bottom = blank.boxes
    assert top.anchor_y < 0.05 and top.anchor_y + top.scale_y <= 0.25
    assert bottom.anchor_y >= 0.75 and bottom.anchor_y + bottom.scale_y <= 1.0
    assert top.scale_x == bottom.scale_x == 1.0  # centred, wide captions span the image
    assert (top.color, top.style) == ("white", "upper")
    assert parse_boxes([box.to_dict() for box in blank.boxes]) == blank.boxes  # valid for the schema


def test_the_text_is_painted_out_and_the_picture_comes_back() -> None:
    clean, meme_pixels, meme = captioned("success", ["fixed the bug", "on the first try"])
    blank = make_blank_template(meme)  # type: ignore[arg-type]
    after = np.asarray(blank.image, dtype=float)
    caption = np.abs(meme_pixels - clean).max(axis=2) > 0  # pixels the caption changed
    assert psnr(after[caption], clean[caption]) > psnr(meme_pixels[caption], clean[caption]) + 15
    untouched = ~caption
    assert psnr(after[untouched], clean[untouched]) > 40  # the rest of the picture is left alone


def test_dark_text_on_a_light_panel_gives_black_boxes() -> None:
    _, _, meme = captioned("ds", ["ship it friday", "wait for monday"])
    blank = make_blank_template(meme)  # type: ignore[arg-type]
    assert sorted(blank.texts) == ["ship it friday", "wait for monday"]
    assert {box.color for box in blank.boxes} == {"black"}
    assert {box.style for box in blank.boxes} == {"none"}


def test_a_turned_caption_becomes_a_box_turned_the_same_way_where_it_was() -> None:
    _, boxes = template("cmm")
    _, _, meme = captioned("cmm", ["rats are as clean as a cat"])
    blank = make_blank_template(meme)  # type: ignore[arg-type]
    assert blank.texts[0] == "RATS ARE AS CLEAN AS A CAT"
    made, drawn = blank.boxes[0], boxes[0]
    assert abs(made.angle - drawn.angle) <= 2
    size = meme.size  # type: ignore[attr-defined]
    (x, y), (want_x, want_y) = made.centre(size), drawn.centre(size)
    assert abs(x - want_x) <= 0.05 * size[0] and abs(y - want_y) <= 0.05 * size[1]
    assert parse_boxes([box.to_dict() for box in blank.boxes]) == blank.boxes
