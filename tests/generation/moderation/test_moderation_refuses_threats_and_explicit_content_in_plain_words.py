"""Threats and explicit content are sentences, not listed words: the meaning classifier, trained on
captions written as people type them, refuses them; ordinary captions with the same words pass."""

import pytest

from generation.captions.filters import CaptionFilter


@pytest.mark.parametrize(
    "caption",
    [
        ["i know your address", "see you tonight"],
        ["i will find you", "and i will hurt you"],
        ["your kids walk home alone", "would be a shame"],
        ["take your clothes off", "send me pics"],
        ["spread your legs", "for daddy"],
    ],
)
def test_a_threat_or_explicit_caption_is_refused(caption: list[str]) -> None:
    assert CaptionFilter().reason(caption) == "hateful"


@pytest.mark.parametrize(
    "caption",
    [
        ["my cat sits on my face", "every morning"],
        ["this test is killing me"],
        ["she said yes", "to the dress"],
        ["undress the turkey", "before you cook it"],
        ["women in science", "inspiring"],
    ],
)
def test_an_ordinary_caption_with_the_same_words_is_accepted(caption: list[str]) -> None:
    assert CaptionFilter().reason(caption) is None
