"""Checks every caption passes before it can become a meme; a failing one is resampled.

profanity (better-profanity's word list, with its leetspeak variants), English (lingua, the same
threshold as the training data cleaning), sensible length (the cleaning bounds), and novelty:
not a verbatim copy of a training caption, checked against 8-byte hashes of every training
caption (2.4 MB for 304k captions, instead of shipping the captions).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from generation.captions.config import CleaningRules
from generation.captions.data import caption_text, normalize_caption

HASHES_FILE = "training_captions.npy"


def caption_hash(boxes: Iterable[str]) -> int:
    """64-bit hash of a caption's normalised text (boxes joined with " | ")."""
    digest = hashlib.blake2b(caption_text(normalize_caption(boxes)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def caption_hashes(captions: Iterable[list[str]]) -> np.ndarray:
    """Sorted unique uint64 hashes, ready for ``np.searchsorted``."""
    return np.unique(np.fromiter((caption_hash(c) for c in captions), dtype=np.uint64))


# better-profanity's own letter substitutions ("sh1t", "@ss", "f*ck"-style stars for vowels).
LEET = {
    "a": "a@*4",
    "i": "i*l1",
    "o": "o*0@",
    "u": "u*v",
    "v": "v*u",
    "l": "l1",
    "e": "e*3",
    "s": "s$5",
    "t": "t7",
}


def _variant(entry: str) -> str:
    """Regex for one word-list entry with every substitution; words of a phrase across spaces."""
    return r"\s+".join(
        "".join(f"[{re.escape(LEET[c])}]" if c in LEET else re.escape(c) for c in word)
        for word in entry.split()
    )


@lru_cache(maxsize=1)
def _profanity_pattern() -> re.Pattern[str]:
    """better-profanity's word list (916 entries) and substitutions as one regex.

    Same words and variants as ``profanity.contains_profanity``, which took ~70 ms a caption
    here (it compares every word with every entry in Python); this takes well under 1 ms.
    """
    import better_profanity

    listing = Path(better_profanity.__file__).parent / "profanity_wordlist.txt"
    entries = {
        line.strip().lower() for line in listing.read_text(encoding="utf-8").splitlines() if line.strip()
    }
    alternatives = sorted((_variant(e) for e in entries), key=len, reverse=True)
    return re.compile(r"(?<![\w@$*])(?:" + "|".join(alternatives) + r")(?![\w@$*])")


def is_profane(text: str) -> bool:
    """Checked as written and with punctuation inside words dropped, as better-profanity does
    ("ped.0." reads as "ped0")."""
    lowered = text.lower()
    squeezed = re.sub(r"[^\w\s@$*|]", "", lowered)
    return any(_profanity_pattern().search(t) is not None for t in (lowered, squeezed))


@lru_cache(maxsize=1)
def _english_detector() -> Any:
    from lingua import Language, LanguageDetectorBuilder

    return LanguageDetectorBuilder.from_languages(
        *(getattr(Language, name) for name in CleaningRules().languages)
    ).build()


def english_confidence(text: str) -> float:
    from lingua import Language

    return float(_english_detector().compute_language_confidence(text, Language.ENGLISH))


@dataclass
class CaptionFilter:
    """Rejects profane, non-English, badly sized and copied captions."""

    training_hashes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))
    rules: CleaningRules = field(default_factory=CleaningRules)
    min_english: float = 0.15  # lingua P(English); as in data cleaning, drops only clear cases

    @classmethod
    def from_model_dir(cls, path: Path) -> CaptionFilter:
        file = Path(path) / HASHES_FILE
        return cls(np.load(file) if file.is_file() else np.zeros(0, dtype=np.uint64))

    def is_copy(self, boxes: list[str]) -> bool:
        h = np.uint64(caption_hash(boxes))
        i = int(np.searchsorted(self.training_hashes, h))
        return i < len(self.training_hashes) and self.training_hashes[i] == h

    def reason(self, boxes: list[str]) -> str | None:
        """Why a caption is rejected, or None if it may be shown. Cheapest checks first."""
        text = caption_text(boxes)
        if any(not b.strip() for b in boxes) or not self.rules.min_chars <= len(text) <= self.rules.max_chars:
            return "length"
        if self.is_copy(boxes):
            return "copy"
        if is_profane(text):
            return "profanity"
        if english_confidence(text) < self.min_english:
            return "not_english"
        return None
