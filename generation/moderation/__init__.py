"""The one check every text a meme may show passes: reader keywords, generated captions and
curator text (template names, keywords, example captions) alike.

``refusal(text)`` says why a text may not be shown, or None. It judges ``shown_form(text)``,
the NFKC form that is also what gets stored and drawn, so what is checked is what is drawn:

1. invisible characters (fillers, joiners, format characters) are refused, as are characters
   the meme font cannot draw (CJK, Arabic, emoji), which the renderer would leave out;
2. refused words (``refused_words.txt``: strong swear words, explicit sexual words, slurs) are
   looked for in the plain form, however spelled (lookalikes, accents, leetspeak, ``*`` masks,
   separators inside words, joined words);
3. a trained classifier judges hateful or abusive meaning ("china should be dead"), and the
   triple parentheses of the antisemitic echo ("(((they)))") are refused as hateful.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generation.moderation.classifier import classifier
from generation.moderation.lexicon import echoed_word, read_tokens, refused_word
from generation.moderation.text import (
    describe,
    invisible_characters,
    plain_form,
    shown_form,
    undrawable_characters,
)

Reason = Literal["invisible", "undrawable", "profanity", "hateful"]

__all__ = ["Reason", "Refusal", "refusal", "shown_form"]


@dataclass(frozen=True)
class Refusal:
    reason: Reason
    detail: str = ""  # the characters found, for the message

    @property
    def message(self) -> str:
        """Why, in words a curator or reader can act on (completes "… is not allowed")."""
        if self.reason == "invisible":
            return f"contains invisible or control characters ({self.detail}): type it without them"
        if self.reason == "undrawable":
            return f"contains characters the meme font cannot draw: {self.detail}"
        if self.reason == "profanity":
            return "is not allowed (profanity)"
        return "is not allowed (hateful or abusive)"


def refusal(text: str) -> Refusal | None:
    """Why ``text`` may not be shown on a meme, or None when it may."""
    if hidden := invisible_characters(text):  # as typed: NFKC turns some fillers into others
        return Refusal("invisible", describe(hidden))
    shown = shown_form(text)
    if hidden := invisible_characters(shown):
        return Refusal("invisible", describe(hidden))
    if missing := undrawable_characters(shown):
        return Refusal("undrawable", describe(missing))
    plain = plain_form(shown)
    tokens = read_tokens(plain)
    if refused_word(tokens) is not None:
        return Refusal("profanity")
    if echoed_word(plain) is not None or classifier().refuses(tokens):
        return Refusal("hateful")
    return None
