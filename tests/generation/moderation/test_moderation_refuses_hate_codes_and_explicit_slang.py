"""Hate codes, explicit slang and insults a writer's captions found missing are refused as words
or phrases; the ordinary words and names they sit beside ("guy fawkes", a rugby hooker, emphasis
around a short word) are not."""

import pytest

from generation.moderation import refusal


@pytest.mark.parametrize(
    "text",
    [
        "the goyim are waking up",
        "day of the rope when",
        "zog runs the banks",
        "14/88 my brothers",
        "hail victory comrades",
        "remove kebab from the premises",
        "despite being 13% of us",
        "the jewish question again",
        "typical heeb move",
        "fudgepackers parade",
        "fap session ruined",
        "creampie gang",
        "stop jerking off at work",
        "nice knockers",
        "hookers on the strip",
        "booty calls at 4am",
        "what a douchebag",
        "douche bags on the bus",
        "bollocks to this",
        "fawk off",
    ],
)
def test_a_hate_code_or_explicit_slang_is_refused(text: str) -> None:
    reason = refusal(text)
    assert reason is not None and reason.reason == "profanity"


@pytest.mark.parametrize(
    "text",
    [
        "guy fawkes mask | remember remember",
        "the hooker threw it in crooked",
        "that film gave me the heebie jeebies",
        "when *he* breaks a plate",
        "the door knocker fell off",
        "grandad's 88th birthday",
    ],
)
def test_the_ordinary_words_beside_them_are_accepted(text: str) -> None:
    assert refusal(text) is None
