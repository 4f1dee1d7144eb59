"""Characters no caption uses, stray specks read as letters and our own mark
are dropped; real short words and punctuation stay."""

import numpy as np

from generation.ocr import OcrLine, TextRegion
from generation.ocr.blocks import group_blocks
from generation.ocr.junk import clean_line, clean_word, split_glued
from generation.ocr.letters import without_outlines
from generation.ocr.lines import Word, group_words

BOX = (0, 0, 100, 20)


def test_characters_no_caption_uses_are_stripped() -> None:
    assert clean_word("|WHEN~") == "WHEN"
    assert clean_word("«DON'T»") == "DON'T"
    assert clean_word("|") == "I"


def test_words_glued_through_a_speck_are_split() -> None:
    assert [word for word, _ in split_glued([("OF.DUTY", 50.0), ("e.g.", 90.0), ("DON'T", 90.0)])] == [
        "OF",
        "DUTY",
        "e.g.",
        "DON'T",
    ]


def test_texture_read_as_short_words_is_dropped() -> None:
    assert clean_line([("yp", 54.0), ("Ss", 49.0)], BOX) is None
    assert clean_line([("—_—", 34.0)], BOX) is None
    # One fairly confident word does not save a line of rare and oddly cased ones.
    assert clean_line([("wa", 66.0), ("wat", 39.0), ("oN", 54.0)], BOX) is None
    assert clean_line([("Y", 55.0), ("U", 58.0), ("NO", 52.0)], BOX) is not None


def test_real_short_words_and_confident_lines_stay() -> None:
    line = clean_line([("ME", 95.0), ("TOO!", 91.0)], BOX)
    assert line == OcrLine("ME TOO!", BOX, 93.0)
    assert clean_line([("IS", 55.0), ("COMING", 83.0)], BOX) is not None


def test_our_own_mark_is_not_caption_text() -> None:
    assert clean_line([("AI-generated", 91.0)], BOX) is None
    assert clean_line([("Al", 90.0), ("generated", 88.0)], BOX) is None
    line = clean_line([("THE", 95.0), ("END", 95.0), ("Al-generated", 80.0)], BOX)
    assert line is not None and line.text == "THE END"


def test_lines_stacked_closely_group_into_one_block_and_far_ones_apart() -> None:
    lines = [
        OcrLine("ONE DOES NOT", (100, 10, 400, 40), 90.0),
        OcrLine("SIMPLY WALK", (120, 58, 360, 40), 90.0),
        OcrLine("INTO MORDOR", (110, 500, 380, 40), 90.0),
    ]
    blocks = group_blocks(lines)
    assert [block.text for block in blocks] == ["ONE DOES NOT SIMPLY WALK", "INTO MORDOR"]
    assert blocks[0].bbox == (100, 10, 400, 88)


def test_tightly_set_lines_are_not_merged_into_one() -> None:
    """Caption lines are set tight: a tall word of the first line reaches into
    the second, yet each line keeps its own words in order."""
    first = [Word("ME", (0, 0, 40, 40), 90.0, 0), Word("ENJOYING", (50, 0, 160, 56), 90.0, 0)]
    second = [Word("THE", (10, 34, 60, 40), 90.0, 0), Word("LAST", (80, 34, 80, 40), 90.0, 0)]
    lines = group_words([*second, *first])
    assert [[word.text for word in line] for line in lines] == [["ME", "ENJOYING"], ["THE", "LAST"]]


def region(box: tuple[int, int, int, int], blobs: int, letter_height: float) -> TextRegion:
    return TextRegion(box, np.ones(box[2:][::-1], bool), letter_height, blobs)


def test_the_outline_of_one_word_inside_a_caption_is_not_read_again() -> None:
    """A caption's letters (light, one blob each) and, inside it, the outline
    of one word (dark, a few blobs as tall as the caption's letters or more): only the caption is read."""
    caption, outline = region((20, 10, 760, 130), 71, 30.0), region((410, 8, 210, 38), 3, 14.0)
    assert without_outlines([caption], [outline]) == [caption]


def test_dark_words_on_a_white_panel_are_kept() -> None:
    """White paper (light blobs, many, each taller than the word) behind a dark word."""
    panel, word = region((33, 66, 736, 1049), 24, 99.5), region((113, 148, 185, 88), 4, 58.5)
    assert without_outlines([panel], [word]) == [panel, word]
