"""A refused word inside the name of a thing ("moby dick", "blue tits", "pussy willow") is ordinary:
the words of a phrase in ordinary_phrases.txt are not read for refused words, while the same word
anywhere else in the caption still is."""

import pytest

from generation.moderation import refusal


@pytest.mark.parametrize(
    "caption",
    [
        "reading moby dick | for the third time",
        "spotted dick for pudding",
        "blue tits on the feeder",
        "pussy willow's out in the hedgerow / spring's here",
        "cock-a-doodle-doo at half four",
        "homo sapiens | the only species that pays to live on earth",
        "the last homo erectus | when the sapiens show up",
    ],
)
def test_names_of_things_that_hold_a_refused_word_pass(caption: str) -> None:
    assert refusal(caption) is None


@pytest.mark.parametrize(
    "caption",
    [
        "moby dick | suck my dick",
        "blue tits | nice tits",
        "pussy willow | pussy",
        "dick moby",
        "homo sapiens | and you, homo",
    ],
)
def test_the_word_elsewhere_in_the_caption_is_still_refused(caption: str) -> None:
    refused = refusal(caption)
    assert refused is not None and refused.reason == "profanity"
