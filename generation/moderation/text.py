"""Text as it is drawn, whether it can be drawn, and the plain form it is judged in.

Three steps, in this order, for every text a meme may show:

1. ``shown_form``: NFKC (fullwidth ``ｆｕｃｋ`` and mathematical ``𝐟𝐮𝐜𝐤`` become ``fuck``) and
   whitespace folded to single spaces. This is the text that is both checked and drawn.
2. ``unshowable``: characters that form would still not show as themselves: invisible ones
   (format characters, fillers, joiners) and ones the renderer's fallback face has no glyph for
   (CJK, Arabic, emoji), which the renderer leaves out of the image.
3. ``plain_form``: lower case ASCII for judging, with lookalike letters from other scripts
   (Cyrillic ``с``, Greek ``ο``) read as the Latin letters they imitate and accents folded
   (``fück`` → ``fuck``).
"""

from __future__ import annotations

import unicodedata

from anyascii import anyascii

from generation.render.fonts import FALLBACK_FONT, font_coverage

# Characters with no ink, beyond the format (Cf), control and unassigned categories: Unicode's
# Default_Ignorable_Code_Point letters and marks, and blank-looking symbols used to fake spaces.
INVISIBLE = frozenset(
    [
        *(0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0),
        *range(0x180B, 0x1810),  # Mongolian variation selectors and vowel separator
        *range(0xFE00, 0xFE10),  # variation selectors
        *range(0xE0100, 0xE01F0),  # variation selectors supplement
    ]
)
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Zl", "Zp"})

# Letters the fallback face draws that look like one Latin letter, read as that letter. From
# Unicode's confusables.txt (through confusable-homoglyphs 3.3.1), kept to what the face draws;
# capital-I shapes read as "i" since judging is in lower case.
LOOKALIKE_PAIRS = dict(
    zip(
        "×ıƄƍƖƦƽǀɑɡɣɩɪɯʋʏΑΒΕΖΗΙΚΜΝΟΡΤΥΧαγινορσυϜϳϺЅІЈАВЕКМНОРСТУХЬагеорсухѕіјѡѴѵҮүһҽӀӏԁԌԛԜԝ०ᴄᴏᴑᴜᴠᴡᴢᴦᶃᶌ℮",
        "xibgirsiagyiiwuyabezhikmnoptyxayivopoufjmsijabekmhopctyxbareopcyxsijwvvyyheiidgqwwocoouvwzrgye",
        strict=True,
    )
)
# Greek small mu (and the micro sign, which NFKC makes mu) is a "u" with a tail to the eye
# ("fμck"), however its capital looks: captions are shown as typed beside the image too.
OTHER_LOOKALIKES = {"μ": "u"}
# Most memes are drawn in capitals: a small letter whose capital is a lookalike ("τ" → "Τ")
# reads as that capital's letter.
LOOKALIKES = str.maketrans(
    {upper.lower(): latin for upper, latin in LOOKALIKE_PAIRS.items() if upper.lower() != upper}
    | LOOKALIKE_PAIRS
    | OTHER_LOOKALIKES
)


def shown_form(text: str) -> str:
    """The text as a meme shows it: NFKC, whitespace runs as one space, no edge spaces."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def is_invisible(char: str) -> bool:
    return ord(char) in INVISIBLE or unicodedata.category(char) in INVISIBLE_CATEGORIES


def invisible_characters(text: str) -> list[str]:
    """Characters of ``text`` that draw no ink, in order, without repeats."""
    if text.isascii() and text.isprintable():  # the common case, without a look-up a character
        return []
    return list(dict.fromkeys(c for c in text if is_invisible(c)))


def undrawable_characters(text: str) -> list[str]:
    """Visible characters of ``text`` no shipped face can draw, in order, without repeats."""
    if text.isascii():  # every printable ASCII character is in the face
        return []
    # The renderer draws a box whose own face lacks a character in the fallback face, the one
    # with the widest coverage (Latin, Greek, Cyrillic): what that has no glyph for is left out.
    drawable = font_coverage(FALLBACK_FONT)
    return list(
        dict.fromkeys(c for c in text if ord(c) not in drawable and not c.isspace() and not is_invisible(c))
    )


def describe(chars: list[str]) -> str:
    """Characters named for a message: the visible ones quoted, every one with its code point."""
    return ", ".join(
        f"U+{ord(c):04X}" if is_invisible(c) or c.isspace() else f"{c!r} (U+{ord(c):04X})" for c in chars
    )


def plain_form(text: str) -> str:
    """Lower-case ASCII for judging: lookalikes read as Latin, accents and ligatures folded."""
    if text.isascii():
        return text.lower()
    return anyascii(text.translate(LOOKALIKES)).lower()  # lookalikes first: anyascii reads с as s
