"""Profanity is refused however it is spelled: fullwidth, spaced, dotted, accented, leetspeak,
masked with *, held letters, lookalike letters from other scripts, or joined to another word.
The same check runs on reader keywords and on generated captions."""

import pytest

from generation.captions import KeywordError, clean_keywords
from generation.captions.filters import CaptionFilter

DISGUISED = [
    "ｆｕｃｋ",  # fullwidth: the renderer draws it as plain ASCII
    "f u c k",
    "f.u.c.k",
    "f-u-c-k-i-n-g",
    "fück",
    "shït",
    "sh1t",
    "a$$hole",
    "f*ck",
    "f**k",
    "b*tch",
    "*bullshit*",
    "hillaryshit",
    "dogshit",
    "fuuuuck",
    "fuсk",  # Cyrillic с
    "ΒΙΤCΗ",  # Greek capitals
    "𝐟𝐮𝐜𝐤",  # mathematical bold
    "fu ck",
    "f@ck",  # an @ hiding a letter, not only standing for an "a"
    "fμck",  # Greek mu: a u with a tail
]


@pytest.mark.parametrize("keyword", DISGUISED)
def test_a_disguised_swear_word_is_refused_as_a_keyword(keyword: str) -> None:
    with pytest.raises(KeywordError, match="profanity"):
        clean_keywords([keyword])


@pytest.mark.parametrize("word", DISGUISED)
def test_a_disguised_swear_word_is_refused_in_a_caption(word: str) -> None:
    assert CaptionFilter().reason(["when the build breaks on friday", f"{word} this"]) == "profanity"


def test_slurs_are_refused_in_captions_and_keywords() -> None:
    assert CaptionFilter().reason(["look at this", "f4ggot over there"]) == "profanity"
    with pytest.raises(KeywordError, match="profanity"):
        clean_keywords(["n1gga"])


@pytest.mark.parametrize("text", ["my c@t at 3am", "email me@home.com today", "b@ll is life forever"])
def test_an_at_sign_in_an_ordinary_word_is_not_read_as_a_mask(text: str) -> None:
    assert CaptionFilter().reason([text]) is None
