"""Junk filtering: Tesseract invents text (``|``, ``=-``, a stray ``e`` from a
photo's texture). Characters no caption uses are stripped, words glued through
a speck are split, and words and lines with too little real text or
confidence are dropped, as is our own "AI-generated" mark."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from generation.ocr.geometry import Box
from generation.ocr.results import OcrLine

# Characters a caption plausibly uses besides letters, digits and spaces.
CAPTION_PUNCTUATION = set(".,!?'\"’‘“”-–—:;()&%$#@*/+=…")
MIN_LINE_CONFIDENCE = 40  # mean word confidence (0..100) below which a short line is noise
MIN_WORD_CONFIDENCE = 20  # below this a word must at least look like a word to stay
MIN_SHORT_WORD_CONFIDENCE = 60  # below this a rare word of 1-3 letters is taken for texture
STRAIGHT_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})
# Common words of 1-3 letters (upper case), kept even when read with low confidence.
COMMON_SHORT_WORDS = frozenset(
    {
        *("A", "I", "AM", "AN", "AND", "ANY", "ARE", "AS", "AT", "BE", "BUT", "BY", "CAN", "DID", "DO"),
        *("DON", "FOR", "GET", "GOT", "HAD", "HAS", "HE", "HER", "HIM", "HIS", "HOW", "IF", "IN", "IS"),
        *("IT", "ITS", "LET", "ME", "MY", "NO", "NOT", "NOW", "OF", "OH", "OK", "ON", "ONE", "OR", "OUR"),
        *("OUT", "SAY", "SEE", "SHE", "SO", "THE", "TO", "TOO", "TWO", "UP", "US", "WAS", "WE", "WHO"),
        *("WHY", "YES", "YET", "YOU"),
    }
)
# A stop glued between two runs of letters is a speck OCR read between two words.
GLUED = re.compile(r"([^\W\d_]{2,})(?:[.:;!,]|'(?=[^\W\d_]{3}))([^\W\d_]{2,})")
# Our own "AI-generated" mark is not caption text (OCR reads its "I" as "l").
MARK_WORDS = re.compile(r"\bA[Il1|]?[- ]?gener[a-z]*ted\b", re.IGNORECASE)


def clean_word(word: str) -> str:
    """The word without characters no caption uses (OCR's |, ~, «, _ and the like)."""
    if word in ("|", "l", "[", "]"):  # a lone capital I, as Tesseract often reads it
        return "I"
    # Tesseract reads straight quotes as curly ones about as often as not; captions are typed straight.
    word = word.translate(STRAIGHT_QUOTES)
    return "".join(char for char in word if char.isalnum() or char in CAPTION_PUNCTUATION)


def split_glued(words: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    """Words split where OCR glued two together through a speck between them
    ("OF.DUTY", "THE!FIREPLACE"): a stop between two runs of 2+ letters."""
    return [(part, confidence) for word, confidence in words for part in GLUED.sub(r"\1 \2", word).split()]


def is_unknown_short_word(word: str) -> bool:
    """Three letters or fewer and not a common short word: what texture reads as ("yp", "ane")."""
    core = "".join(char for char in word if char.isalnum())
    return len(core) <= 3 and core.upper() not in COMMON_SHORT_WORDS and not core.isdigit()


def rare_or_odd(word: str) -> bool:
    """A rare short word, or a short one in no consistent case ("oN")."""
    return is_unknown_short_word(word) or (len(word) <= 3 and not looks_like_a_word(word))


def looks_like_a_word(word: str) -> bool:
    """Letters in one consistent case (WORD, word, Word) or a number."""
    core = word.strip("".join(CAPTION_PUNCTUATION))
    if not core:
        return False
    if core.isdigit():
        return True
    return core.isalpha() and (core.isupper() or core.islower() or core.istitle()) and len(core) >= 2


def clean_line(words: Sequence[tuple[str, float]], box: Box) -> OcrLine | None:
    """The line with junk words removed, or None when nothing worth keeping is left."""
    kept = []
    for word, confidence in split_glued(words):
        word = clean_word(unicodedata.normalize("NFC", word))
        if not any(char.isalnum() for char in word):
            continue
        if confidence < MIN_WORD_CONFIDENCE and not looks_like_a_word(word):
            continue
        kept.append((word, confidence))
    kept = without_texture(kept)
    if not kept:
        return None
    text = " ".join(MARK_WORDS.sub("", " ".join(word for word, _ in kept)).split())
    confidence = sum(confidence for _, confidence in kept) / len(kept)
    if sum(char.isalnum() for char in text) < 2:
        return None
    if confidence < MIN_LINE_CONFIDENCE and not all(looks_like_a_word(word) for word, _ in kept):
        return None
    return OcrLine(text, box, round(confidence, 1))


def without_texture(words: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """Texture reads as rare short words with low confidence ("yp", "Ss", a trailing
    "ve"). A line of nothing else goes; in a real line such a word stays only
    when its case matches the line's (TOP in "TOP TEXT", not ve in "IS COMING ve")."""

    def doubtful(word: str, confidence: float) -> bool:
        return confidence < MIN_SHORT_WORD_CONFIDENCE and is_unknown_short_word(word)

    if all(doubtful(word, confidence) for word, confidence in words):
        return []
    # A few rare short words, however confident one of them is, read together
    # with little confidence: a patch of texture ("wa wat oN" on bricks).
    mean_confidence = sum(confidence for _, confidence in words) / len(words)
    if mean_confidence < MIN_SHORT_WORD_CONFIDENCE and all(rare_or_odd(word) for word, _ in words):
        return []
    letters = [char for word, _ in words for char in word if char.isalpha()]
    upper_line = sum(char.isupper() for char in letters) > len(letters) / 2
    return [
        (word, confidence)
        for word, confidence in words
        if not doubtful(word, confidence) or (word.isupper() == upper_line and not word.isdigit())
    ]


# --- reading -----------------------------------------------------------------
