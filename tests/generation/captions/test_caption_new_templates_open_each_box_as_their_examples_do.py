"""A template the model was not trained on gets its format from its curator's examples."""

from generation.captions import CaptionRequest, SamplingSettings
from generation.captions.formats import openings
from generation.captions.tiny import tiny_caption_model


class AcceptAll:
    def reason(self, boxes: list[str]) -> str | None:
        return None


FRY = [
    "not sure if trolling | or just stupid",
    "not sure if tired | or just lazy",
    "not sure if cat | or dog",
]


def test_openings_are_what_most_examples_share_word_for_word() -> None:
    assert openings(FRY, 2) == ["not sure if", "or just"]
    assert openings(["Not sure if trolling | or just stupid"], 2) == ["not sure if", "or just"]
    assert openings(["one does not simply walk into mordor"], 1) == ["one does not simply"]


def test_no_opening_where_the_examples_agree_on_none_or_there_are_none() -> None:
    assert openings(["cats are great | dogs too", "my boss | at work"], 2) == ["", ""]
    assert openings([], 2) == ["", ""]
    assert openings(FRY, 1) == [""]  # examples of another box count say nothing of a 1-box layout
    assert openings(["brace yourselves"], 1) == [""]  # too short to hold an opening and a joke


def test_every_caption_of_a_new_template_opens_each_box_with_its_format() -> None:
    model = tiny_caption_model()
    model.filter = AcceptAll()  # type: ignore[assignment]
    settings = SamplingSettings(temperature=1.5, top_p=1.0, max_new_tokens=60, candidates=2, max_attempts=6)
    captions = model.write([CaptionRequest("Futurama-Fry-New", 2, examples=FRY, n=6)], settings, rng_seed=4)
    assert len(captions) == 6
    for caption in captions:
        assert caption.boxes[0].startswith("not sure if"), caption.boxes
        assert caption.boxes[1].startswith("or just"), caption.boxes
        assert caption.keywords == []  # the format, not words lifted from the examples


def test_a_known_template_keeps_its_own_format() -> None:
    model = tiny_caption_model()
    model.filter = AcceptAll()  # type: ignore[assignment]
    settings = SamplingSettings(temperature=1.5, top_p=1.0, max_new_tokens=60, max_attempts=6)
    captions = model.write([CaptionRequest("Success-Kid", 1, examples=FRY, n=6)], settings, rng_seed=4)
    assert not all(c.boxes[0].startswith("not sure if") for c in captions)


def test_an_opening_two_of_four_examples_share_is_a_coincidence_not_a_format() -> None:
    examples = ["the cat sat | on a mat", "the dog ran | far away", "my boss | at work", "a sandwich | lunch"]
    assert openings(examples, 2) == ["", ""]
    assert openings([*examples[:3], "the bird sang | loudly"], 2) == ["the", ""]  # three of four
