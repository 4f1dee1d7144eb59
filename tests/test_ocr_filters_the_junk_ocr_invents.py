"""Characters no caption uses, stray specks read as letters and our own mark
are dropped; real short words and punctuation stay."""

from generation.ocr import OcrLine, clean_line, clean_word, group_blocks, split_glued

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
