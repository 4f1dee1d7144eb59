"""Words of time ("tonight", "today") and "whole" say nothing about meaning on their own: an
ordinary caption about tonight's plans is not refused because threats and propositions also happen
tonight."""

import pytest

from generation.moderation import refusal
from generation.moderation.classifier import features
from generation.moderation.lexicon import read_tokens


@pytest.mark.parametrize("word", ["tonight", "today", "tomorrow", "whole"])
def test_a_word_of_time_is_no_feature_alone(word: str) -> None:
    assert word not in features(read_tokens(f"pizza {word}"))


@pytest.mark.parametrize(
    "caption",
    ["you galah / the bbq was for tonight not last night", "movie night tonight with the whole family"],
)
def test_plans_for_tonight_are_accepted(caption: str) -> None:
    assert refusal(caption) is None


def test_a_threat_for_tonight_is_still_refused() -> None:
    assert refusal("i know where you live and i'm coming tonight") is not None
