"""A caption wishing death or harm on a group of people, or telling someone to kill
themselves, is refused though it holds no listed word; the same words about things are not."""

import pytest

from generation.captions import KeywordError, clean_keywords
from generation.captions.filters import CaptionFilter


@pytest.mark.parametrize(
    "caption",
    [
        ["china should be dead"],
        ["all mexicans should be killed"],
        ["when a muslim moves in next door", "get the rope"],
        ["gays should be shot"],
        ["immigrants are vermin"],
        ["you are worthless", "go kill yourself"],
    ],
)
def test_a_hateful_caption_is_refused(caption: list[str]) -> None:
    assert CaptionFilter().reason(caption) == "hateful"


@pytest.mark.parametrize(
    "caption",
    [
        ["my phone should be dead by now", "still at 3%"],
        ["kill the spider", "with fire"],
        ["mexican food", "is the best food"],
        ["happy pride month", "to all my gay friends"],
    ],
)
def test_the_same_words_about_things_or_in_kindness_are_accepted(caption: list[str]) -> None:
    assert CaptionFilter().reason(caption) is None


def test_a_hateful_keyword_is_refused() -> None:
    with pytest.raises(KeywordError, match="hateful"):
        clean_keywords(["gas the jews"])
