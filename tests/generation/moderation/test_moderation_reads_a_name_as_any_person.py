"""A first name says nothing of what is said to the person: the classifier reads every name of
names.txt as one token, <name>, that stands only beside other words, so a caption is judged by
what it says to "kevin" and not by the name its writer chose; "ye" and "yer" are the reader."""

import pytest

from generation.moderation import refusal
from generation.moderation.classifier import NAME, features
from generation.moderation.lexicon import read_tokens
from generation.moderation.text import plain_form


def features_of(text: str) -> set[str]:
    return features(read_tokens(plain_form(text)))


def test_a_name_is_never_a_feature_of_its_own() -> None:
    found = features_of("jessica birthday party tonight")
    assert not any("jessica" in f for f in found)
    assert f"{NAME}&birthday" in found
    assert not any(NAME in f and "&" not in f for f in found)  # not alone, in no pair or triple


@pytest.mark.parametrize(
    "caption",
    [
        "jessica birthday party tonight",
        "when kevin brings donuts to work",
        "ye olde shoppe | closed on sundays",
    ],
)
def test_captions_that_name_people_in_passing_pass(caption: str) -> None:
    assert refusal(caption) is None


@pytest.mark.parametrize(
    "caption", ["kevin should die", "i will kill jessica", "i know where you live tyler"]
)
def test_what_is_said_to_a_named_person_is_still_read(caption: str) -> None:
    refused = refusal(caption)
    assert refused is not None and refused.reason == "hateful"


def test_ye_and_yer_are_the_reader() -> None:
    assert "you&die" in features_of("ye will die tonight")
    assert "ye" not in features_of("ye will die tonight")
