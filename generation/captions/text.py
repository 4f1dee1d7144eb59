"""A caption's text as the model, the filters, the reranking and the lab read it.

A caption is a list of boxes (strings), top to bottom. Captions are compared and counted in one
normal form (lowercase, whitespace folded, typographic quotes made ASCII, no empty box) and as
one string with the boxes joined by " | ".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

Caption = list[str]  # boxes, top to bottom
TRANSLATE = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2026": "..."})
WORD = re.compile(r"[a-z]+")  # a caption's words, as reranking and evaluation read them


def normalize_caption(boxes: Iterable[str]) -> Caption:
    """Lowercase, fold whitespace, make quotes ASCII, drop empty boxes."""
    folded = (" ".join(b.translate(TRANSLATE).lower().split()) for b in boxes)
    return [b for b in folded if b]


def caption_text(boxes: Caption) -> str:
    """One string per caption, as the human reference statistics join boxes."""
    return " | ".join(boxes)
