"""Profanity is refused spelled as it sounds (ph for f, q or ck for k, x for ks, "uh"), spaced out
unevenly, a letter off from a strong word, or ending a made-up word ("stankass"); the ordinary
words those readings would reach (where, whole, kiss, shirt, sunglasses) are accepted."""

import pytest

from generation.captions import KeywordError, clean_keywords
from generation.captions.filters import CaptionFilter
from generation.moderation import refusal

SPELLED = [
    "phuq",  # ph → f, q → k: sounds "fuk"
    "phuqing",
    "fuhk",  # "uh" before a consonant
    "fux",  # x → ks: sounds "fucks"
    "kunt",
    "azzhole",  # z → s
    "dik",
    "bi t c h",  # letters spaced unevenly
    "b i tc h",
    "p h u q",
    "biitch",  # a letter added
    "fagit",  # a letter changed in a long word
    "shtit",  # two letters swapped
    "stankass",  # a made-up word ending in "ass"
    "cockblock",
]


@pytest.mark.parametrize("keyword", SPELLED)
def test_profanity_spelled_another_way_is_refused_as_a_keyword(keyword: str) -> None:
    with pytest.raises(KeywordError, match="profanity"):
        clean_keywords([keyword])


@pytest.mark.parametrize("word", SPELLED)
def test_profanity_spelled_another_way_is_refused_in_a_caption(word: str) -> None:
    assert CaptionFilter().reason(["when the build breaks on friday", f"{word} this"]) == "profanity"


@pytest.mark.parametrize(
    "caption",
    [
        ["where is my phone", "the whole day gone"],
        ["kiss the cook"],
        ["new shirt", "who dis"],
        ["sunglasses on", "compass out", "molasses in"],
        ["he wore gloves"],
        ["q is a patriot", "be like q"],
        ["fagin and oliver twist"],
        ["the niger river"],
        ["quick brown fox", "jumps over the lazy duck"],
        ["omg i d k", "l o l"],
    ],
)
def test_ordinary_words_those_readings_reach_are_accepted(caption: list[str]) -> None:
    assert refusal(" | ".join(caption)) is None  # the content check alone: "i d k" is not English
