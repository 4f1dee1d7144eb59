"""Mild words memes use every day are accepted as keywords and in captions: the old word list
refused them, so "Too Damn High" lost most of its captions."""

import pytest

from generation.captions import clean_keywords
from generation.captions.filters import CaptionFilter

MILD = ["damn", "hell", "god", "gay", "kill", "omg", "stupid", "poop", "virgin"]


@pytest.mark.parametrize("word", MILD)
def test_a_mild_word_is_accepted_as_a_keyword(word: str) -> None:
    assert clean_keywords([word]) == [word]


@pytest.mark.parametrize(
    "caption",
    [
        ["the rent is too damn high"],
        ["what the hell is this code", "it works though"],
        ["oh my god", "it compiled on the first try"],
        ["my best friend came out as gay", "and i am so proud of him"],
        ["this exam is going to kill me", "send help"],
        ["omg", "they cancelled the exam"],
        ["stupid printer", "works only when i am not looking"],
        ["when you step in dog poop", "in new shoes"],
        ["extra virgin olive oil", "on everything"],
    ],
)
def test_a_caption_using_a_mild_word_is_accepted(caption: list[str]) -> None:
    assert CaptionFilter().reason(caption) is None


@pytest.mark.parametrize(
    "text",
    ["class is over", "the assassin", "cocktail hour", "scunthorpe united", "shiitake", "90% of people"],
)
def test_ordinary_words_that_hold_a_refused_word_are_accepted(text: str) -> None:
    assert clean_keywords([text]) == [text]
