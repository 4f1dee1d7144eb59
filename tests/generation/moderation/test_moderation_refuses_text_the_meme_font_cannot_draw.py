"""Keywords and captions the meme font cannot draw (CJK, Arabic, emoji) or that hold invisible
characters are refused with a message naming them, instead of being left out of the image;
fullwidth letters are folded to the ASCII the font draws, so what is checked is what is drawn."""

import re

import pytest

from generation.captions import KeywordError, clean_keywords
from generation.captions.filters import CaptionFilter
from generation.moderation import refusal


@pytest.mark.parametrize(("keyword", "named"), [("中文", "U+4E2D"), ("😀", "U+1F600"), ("مرحبا", "U+0645")])
def test_a_keyword_the_font_cannot_draw_is_refused_naming_the_characters(keyword: str, named: str) -> None:
    with pytest.raises(KeywordError, match=f"cannot draw.*{re.escape(named)}"):
        clean_keywords([keyword])


@pytest.mark.parametrize("invisible", ["\u3164", "\u115f", "\u034f", "\u200b"])
def test_a_keyword_with_an_invisible_character_is_refused_naming_it(invisible: str) -> None:
    code = re.escape(f"U+{ord(invisible):04X}")
    with pytest.raises(KeywordError, match=f"invisible.*{code}"):
        clean_keywords([f"cat{invisible}"])
    with pytest.raises(KeywordError, match=code):
        clean_keywords([invisible])


def test_a_caption_the_font_cannot_draw_is_refused() -> None:
    assert CaptionFilter().reason(["when the food arrives", "寿司 time"]) == "undrawable"
    assert CaptionFilter().reason(["when the food arrives", "sushi\u3164time"]) == "invisible"


def test_fullwidth_keywords_are_kept_as_the_ascii_that_is_drawn() -> None:
    assert clean_keywords(["Ｍｏｎｄａｙ", "ｃｏｆｆｅｅ"]) == ["monday", "coffee"]


def test_accented_latin_greek_and_cyrillic_text_is_drawable() -> None:
    # Keywords in them are written plainly or refused for another reason: the caption model
    # writes plain Latin letters (test_caption_keywords_with_accents_are_written_in_plain_letters).
    for text in ("café", "αλφα", "привет"):
        assert refusal(text) is None
