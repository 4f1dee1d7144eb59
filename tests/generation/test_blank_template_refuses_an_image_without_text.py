"""An upload with no readable caption is refused with a ValueError that says
what to upload instead."""

import shutil

import pytest

from generation.blank import NoTextFound, make_blank_template
from tests.golden.templates import template

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Debian's tesseract-ocr")


def test_a_blank_template_is_not_a_captioned_meme() -> None:
    image, _ = template("gone")
    with pytest.raises(NoTextFound, match="no readable text found") as raised:
        make_blank_template(image)
    assert isinstance(raised.value, ValueError)
    assert "upload a blank template" in str(raised.value)
