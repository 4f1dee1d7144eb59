"""Lines of text from Tesseract's words: the page read once, its words put back
into lines per region, repeats dropped, junk filtered, and each line's box
mapped back to image pixels. ``read_text`` is the whole of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from PIL import Image

from generation.ocr.geometry import Box, overlap_ratio
from generation.ocr.junk import clean_line
from generation.ocr.letters import text_regions
from generation.ocr.page import Placement, compose_page, reading_order, to_image
from generation.ocr.results import OcrLine
from generation.ocr.tesseract import tesseract_words


@dataclass(frozen=True)
class Word:
    text: str
    box: Box  # in page pixels, where its region's text is level
    confidence: float
    region: int  # index of the region it was read in: lines never span two


def page_words(picture: Image.Image, placements: Sequence[Placement]) -> list[Word]:
    """Words Tesseract reads on the page (boxes in page pixels)."""
    data = tesseract_words(picture)
    words = []
    for index, text in enumerate(data["text"]):
        if str(text).strip() and float(data["conf"][index]) >= 0:
            box = (
                int(data["left"][index]),
                int(data["top"][index]),
                int(data["width"][index]),
                int(data["height"][index]),
            )
            region, _ = to_image(box, placements)
            words.append(Word(str(text).strip(), box, float(data["conf"][index]), region))
    return words


def group_words(words: Sequence[Word]) -> list[list[Word]]:
    """Words of one region side by side on one row are one line, left to right.
    (Sparse-text mode reads every word on its own; lines are rebuilt here.)"""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda word: (word.box[0], word.box[1])):
        home = next(
            (line for line in lines if line[-1].region == word.region and same_line(line[-1].box, word.box)),
            None,
        )
        if home is None:
            lines.append([word])
        else:
            home.append(word)
    return lines


def same_line(left_word: Box, right_word: Box) -> bool:
    """Words of one region whose middles each lie within the other's rows are
    one line: the region's letters are linked, so no gap between them is a gap
    between captions. (Overlap alone is not enough: caption lines are set
    tight, and a tall word of one line overlaps half of the next.)"""
    return middle_within(left_word, right_word) and middle_within(right_word, left_word)


def middle_within(word: Box, other: Box) -> bool:
    middle = word[1] + word[3] / 2
    return other[1] <= middle <= other[1] + other[3]


def without_repeats(words: Sequence[Word]) -> list[Word]:
    """Sparse-text mode sometimes reads one stretch of ink twice ("DELE" and
    "ETING" over "DELETING"): of words mostly on top of each other, the more
    confident stays."""
    kept: list[Word] = []
    for word in sorted(words, key=lambda word: -word.confidence):
        if all(overlap_ratio(word.box, other.box) <= 0.5 for other in kept):
            kept.append(word)
    return sorted(kept, key=lambda word: word.box[0])


def line_from_words(words: Sequence[Word], placements: Sequence[Placement]) -> OcrLine | None:
    """The cleaned line of ``words``, its box in image pixels (None when only junk was read)."""
    words = without_repeats(words)
    left = min(word.box[0] for word in words)
    top = min(word.box[1] for word in words)
    right = max(word.box[0] + word.box[2] for word in words)
    bottom = max(word.box[1] + word.box[3] for word in words)
    region, box = to_image((left, top, right - left, bottom - top), placements)
    line = clean_line([(word.text, word.confidence) for word in words], box)
    if line is None:
        return None
    scale = placements[region].scale
    upright = (round((right - left) / scale), round((bottom - top) / scale))
    return replace(line, angle=placements[region].angle, upright_size=upright)


def read_text(image: Image.Image) -> list[OcrLine]:
    """Lines of text in the image in reading order (blocks top to bottom, lines
    within a block in order, turned text included), boxes in image pixels."""
    regions = reading_order(text_regions(image))
    if not regions:
        return []
    page, placements = compose_page(regions)
    # Page order is reading order: regions top to bottom, lines level within each.
    grouped = sorted(
        group_words(page_words(page, placements)), key=lambda line: (line[0].box[1], line[0].box[0])
    )
    return [line for words in grouped if (line := line_from_words(words, placements)) is not None]
