"""Ordinary punctuation, accented letters and other alphabets are drawn with a
real glyph, never a tofu box; what no shipped face has (emoji) is left out and counted."""

import pytest

from generation.layout import TextBox
from generation.render import render_meme
from generation.render.fonts import drawable_text, font_coverage
from tests.golden.templates import template

PUNCTUATION = "It’s “quoted” — dashes – and… ‘single’ quotes, (brackets) & 100% #1 @you $5 *sigh* ¿¡"
ACCENTS = "Café naïve façade Ångström Øresund Straße Łódź Ærø señor über"


@pytest.mark.parametrize("font", ["thick", "thin", "comic", "notosans"])
@pytest.mark.parametrize("text", [PUNCTUATION, ACCENTS, "Ελληνικά και Русский текст"])
def test_every_character_gets_a_real_glyph(font: str, text: str) -> None:
    image, _ = template("gone")
    box = TextBox(font=font, style="none")
    rendered = render_meme(image, [box], [text])
    assert rendered.missing_glyphs == 0 and rendered.dropped_chars == 0
    drawn = " ".join(rendered.lines[0])
    assert drawn.replace(" ", "") == text.replace(" ", "")


def test_text_a_face_lacks_is_drawn_in_the_fallback_face() -> None:
    text, face, dropped = drawable_text("ΕΛΛΗΝΙΚΑ", "thick")
    assert (text, face, dropped) == ("ΕΛΛΗΝΙΚΑ", "notosans", 0)
    assert all(ord(char) in font_coverage("notosans") for char in text)


def test_emoji_are_left_out_and_counted_not_drawn_as_boxes() -> None:
    image, _ = template("gone")
    rendered = render_meme(image, [TextBox(style="none")], ["ship it 🚀🔥 now"])
    assert rendered.lines[0] == ("ship it now",)
    assert rendered.dropped_chars == 2 and rendered.missing_glyphs == 0
