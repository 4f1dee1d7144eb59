"""The shipped faces: loading one at a size, which characters each can draw,
and what the renderer draws instead of a character its face lacks."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import ImageFont

from generation.layout import FONTS

# The one place the font files live, with their licences and credits: beside
# the renderer, not under static/ (no page uses them as web fonts).
FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
# The shipped face with the widest coverage (Latin, Greek, Cyrillic): a box
# whose text its own face cannot draw is drawn in this one instead.
FALLBACK_FONT = "notosans"

# Curly quotes and dashes are drawn when the face has them; these stand in
# only when it does not (and after accents are tried without their marks).
PLAIN_SUBSTITUTES = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": ",",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u2013": "-",
    "\u2014": "-",
    "\u2026": "...",
    "\u2022": "*",
    "\u00a0": " ",
}


def font_names() -> list[str]:
    """The faces a text box may ask for (``TextBox.font``), as the renderer draws them."""
    return [name for name in FONTS if (FONT_DIR / FONTS[name]).is_file()]


@lru_cache(maxsize=512)
def font_at(font: str, size: int) -> ImageFont.FreeTypeFont:
    """The face ``font`` (a key of ``FONTS``) at ``size`` pixels, loaded once."""
    return ImageFont.truetype(str(FONT_DIR / FONTS[font]), size=size)


@lru_cache(maxsize=8)
def font_coverage(font: str) -> frozenset[int]:
    """Code points the face has a glyph for."""
    with TTFont(str(FONT_DIR / FONTS[font]), lazy=True) as face:
        return frozenset(face.getBestCmap())


def drawable_text(text: str, font: str) -> tuple[str, str, int]:
    """The text as it can be drawn, the face to draw it in and how many
    characters no shipped face has (left out rather than drawn as boxes)."""
    text = " ".join(unicodedata.normalize("NFC", text).split())
    own = font_coverage(font)
    if all(ord(char) in own for char in text):
        return text, font, 0
    if all(ord(char) in font_coverage(FALLBACK_FONT) for char in text):
        return text, FALLBACK_FONT, 0
    kept: list[str] = []
    dropped = 0
    for char in text:
        stand_in = _stand_in(char, own)
        if stand_in is None:
            dropped += unicodedata.category(char)[0] not in "CMZ"  # marks and joiners are not lost text
        else:
            kept.append(stand_in)
    return " ".join("".join(kept).split()), font, dropped


def _stand_in(char: str, coverage: frozenset[int]) -> str | None:
    if ord(char) in coverage:
        return char
    substitute = PLAIN_SUBSTITUTES.get(char)
    if substitute is not None:
        return substitute
    # An accented letter the face lacks is drawn as its base letter (é → e).
    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    if base and all(ord(c) in coverage for c in base):
        return base
    return None


def missing_glyphs(lines: Sequence[str], font: str) -> int:
    """Characters in ``lines`` the face would draw as a tofu box."""
    coverage = font_coverage(font)
    return sum(1 for line in lines for char in line if ord(char) not in coverage and not char.isspace())
