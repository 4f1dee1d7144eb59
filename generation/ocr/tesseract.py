"""The one call into Tesseract (pytesseract over Debian's ``tesseract-ocr``),
and a clear error naming the package when it is not installed."""

from __future__ import annotations

from typing import Any

import pytesseract
from PIL import Image

# LSTM engine; sparse text: find words anywhere (page layout analysis takes
# the stacked regions and their specks for pictures and skips real captions).
TESSERACT_CONFIG = "--oem 1 --psm 11"
INSTALL_HINT = "install it with: apt-get install tesseract-ocr tesseract-ocr-eng"


class TesseractMissing(RuntimeError):
    """The tesseract program (or its English data) is not installed."""


def tesseract_words(picture: Image.Image) -> dict[str, list[Any]]:
    """Tesseract's word table for ``picture``, with a clear error when it is not installed."""
    try:
        data: dict[str, list[Any]] = pytesseract.image_to_data(
            picture, lang="eng", config=TESSERACT_CONFIG, output_type=pytesseract.Output.DICT
        )
    except pytesseract.TesseractNotFoundError:
        raise TesseractMissing(
            f"OCR needs the tesseract program, which is not installed; {INSTALL_HINT}"
        ) from None
    except pytesseract.TesseractError as error:
        if "eng" in str(error) or "language" in str(error).lower():
            raise TesseractMissing(f"tesseract has no English data; {INSTALL_HINT}") from None
        raise
    return data
