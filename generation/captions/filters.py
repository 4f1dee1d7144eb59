"""Checks every caption passes before it can become a meme; a failing one is resampled.

sensible length (the cleaning bounds); novelty: not a verbatim copy of a training caption,
checked against 8-byte hashes of every training caption (2.4 MB for 304k captions, instead of
shipping the captions); the content check every shown text passes (``generation.moderation``:
drawable, no refused words however spelled, no hateful meaning); English (lingua, the same
threshold as the training data cleaning).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from generation.captions.config import CleaningRules
from generation.captions.text import caption_text, normalize_caption
from generation.moderation import refusal

HASHES_FILE = "training_captions.npy"


def caption_hash(boxes: Iterable[str]) -> int:
    """64-bit hash of a caption's normalised text (boxes joined with " | ")."""
    digest = hashlib.blake2b(caption_text(normalize_caption(boxes)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def caption_hashes(captions: Iterable[list[str]]) -> np.ndarray:
    """Sorted unique uint64 hashes, ready for ``np.searchsorted``."""
    return np.unique(np.fromiter((caption_hash(c) for c in captions), dtype=np.uint64))


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
    """Rejects badly sized, copied, refused (see ``generation.moderation``) and non-English captions."""

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
        if (refused := refusal(text)) is not None:
            return refused.reason
        if english_confidence(text) < self.min_english:
            return "not_english"
        return None
