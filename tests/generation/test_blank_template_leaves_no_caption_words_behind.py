"""Every word of a caption is painted out, also those OCR read apart or was
unsure of: words beside a caption OCR is sure of, read with little confidence,
and a second line that OCR read garbled with the first. Afterwards OCR reads
none of the caption's words on the blank template."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from generation.blank import make_blank_template
from generation.layout import memegen_boxes
from generation.ocr import read_text
from generation.render import load_template, render_meme

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Debian's tesseract-ocr")

DEMO = Path(__file__).resolve().parents[2] / "demo" / "templates"


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]{2,}", text.lower()))


@pytest.mark.parametrize(
    ("key", "texts"),
    [
        ("buzz", ["TUESDAY... TUESDAY EVERYWHERE!!", "and every day after"]),  # words 2-3 were left
        ("grumpycat", ["EVERY TIME THIS MEME IS UPVOTED", "A TWLIGHT BOOK IS BURNT"]),  # line 2 was left
    ],
)
def test_ocr_reads_no_caption_word_on_the_blank_template(key: str, texts: list[str]) -> None:
    folder = DEMO / key
    boxes = memegen_boxes(yaml.safe_load((folder / "config.yml").read_text(encoding="utf-8"))["text"])
    clean = load_template(folder / "default.jpg", 800)
    meme = render_meme(clean, boxes, texts, width=800, mark_text="").image

    blank = make_blank_template(meme)

    read = {word for line in read_text(blank.image) for word in words(line.text)}
    assert read & words(" ".join(texts)) == set()
    assert len(blank.boxes) >= 2
