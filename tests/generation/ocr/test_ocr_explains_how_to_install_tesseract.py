"""Without the tesseract program, reading text fails with a message that says
what to install, not a traceback from deep inside pytesseract."""

import pytesseract
import pytest

from generation.ocr import TesseractMissing, read_text
from generation.render import render_meme
from tests.golden.templates import template


def test_a_missing_tesseract_names_the_package_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    image, boxes = template("gone")
    meme = render_meme(image, list(boxes), ["some text", "to read"]).image
    with pytest.raises(TesseractMissing, match="apt-get install tesseract-ocr"):
        read_text(meme)


def test_missing_english_data_names_the_language_package(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_english(*args: object, **kwargs: object) -> object:
        raise pytesseract.TesseractError(1, "Failed loading language 'eng'")

    monkeypatch.setattr(pytesseract, "image_to_data", no_english)
    image, boxes = template("gone")
    meme = render_meme(image, list(boxes), ["some text", "to read"]).image
    with pytest.raises(TesseractMissing, match="tesseract-ocr-eng"):
        read_text(meme)
