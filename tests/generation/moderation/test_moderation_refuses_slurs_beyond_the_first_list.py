"""Slurs and disguised swear words the first list lacked are refused however spelled; the ordinary
words their readings reach ("spaces" sounds like one) are not."""

import pytest

from generation.moderation import refusal


@pytest.mark.parametrize(
    "text",
    [
        "the new guy is a total spaz",
        "zipperheads everywhere",
        "nibbas in the lobby",
        "j1gaboo music",
        "ching chong accent",
        "porch monkey on the steps",
        "some bellend took my spot",
        "dumbfuk neighbour",
        "mothafukka lagged",
        "camel jockeys at the pump",  # a listed phrase in the plural
        "wiggers trying to rap",
        "bukkake party tonight",  # explicit words a writer's captions found missing
        "doggy style or nothing",
        "so your parents dont like you | you must be a homo",  # the caption model wrote this one
        "h0mos everywhere",
    ],
)
def test_a_slur_or_swear_word_the_first_list_lacked_is_refused(text: str) -> None:
    reason = refusal(text)
    assert reason is not None and reason.reason == "profanity"


@pytest.mark.parametrize(
    "text",
    [
        "tabs vs spaces | the eternal war",
        "make it six spaces",
        "the big bang | *poof* a universe",
        "customers clap when *he* breaks a plate",  # a mask of emphasis reaches no short slur
        "doggy daycare | best day ever",
        "homemade homogenized milk | for the homies",
    ],
)
def test_ordinary_words_the_new_entries_reach_are_accepted(text: str) -> None:
    assert refusal(text) is None
