"""Reading the text of a meme: pytesseract over Debian's ``tesseract-ocr``.

Meme text is white letters with a black outline over a photo, or black text on
white. Neither is what Tesseract expects (dark text on a plain light page), so
the image is first reduced to a clean page: a letter is a connected blob of
light (or dark) pixels whose rim is almost all of the opposite tone, which is
exactly what an outline or a plain background gives and what a sky or a shirt
does not. Those blobs, light and dark text alike, are drawn black on white,
turned level, scaled so letters are ~40 px tall, and read as one page.

Tesseract also invents junk (``|``, ``=-``, stray ``e`` from a photo's
texture): characters no caption uses are stripped and lines with too little
real text or confidence are dropped.

One module per step, each depending only on those before it: ``geometry``
(boxes), ``results`` (``OcrLine``, ``OcrBlock``), ``letters`` (text regions),
``page`` (the page Tesseract reads), ``tesseract`` (the call), ``junk``,
``lines`` (``read_text``), ``blocks`` (``read_blocks``); ``metrics`` holds the
character error rate's edit distance, for evaluation only.
"""

from generation.ocr.blocks import read_blocks
from generation.ocr.geometry import Box, overlap_ratio
from generation.ocr.letters import TextRegion, text_regions
from generation.ocr.lines import read_text
from generation.ocr.results import OcrBlock, OcrLine
from generation.ocr.tesseract import TesseractMissing

__all__ = [
    "Box",
    "OcrBlock",
    "OcrLine",
    "TesseractMissing",
    "TextRegion",
    "overlap_ratio",
    "read_blocks",
    "read_text",
    "text_regions",
]
