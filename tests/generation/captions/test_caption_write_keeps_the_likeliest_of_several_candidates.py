"""write() draws several candidates per caption shown and keeps the lowest-cost ones (rerank.py)."""

import pytest

from generation.captions import CaptionRequest, SamplingSettings
from generation.captions import sample as sampling
from generation.captions.rerank import Vocabulary, caption_costs, known_words, text_cost
from generation.captions.tiny import tiny_caption_model


class AcceptAll:
    def reason(self, boxes: list[str]) -> str | None:
        return None


def test_made_up_words_and_repeated_content_words_cost_more() -> None:
    known = Vocabulary(frozenset(known_words([["still waiting", "for someone to reply"], ["y u no"]] * 3)))
    assert text_cost(["still waiting", "for someone to reply"], known) == 0
    assert text_cost(["still waiting", "for someone to replurk"], known) == 0.5
    assert text_cost(["waiting", "waiting for waiting"], known) == 0.5  # two repeats of a content word
    assert text_cost(["y u no", "y u no reply"], known) == 0  # function words may repeat


def test_a_box_that_is_only_a_keyword_and_keywords_left_out_cost_more() -> None:
    known = Vocabulary(frozenset(known_words([["coffee", "cats", "my morning coffee", "without cats"]] * 3)))
    woven = text_cost(["my morning coffee", "without cats"], known, ["coffee", "cats"])
    bare = text_cost(["coffee", "my morning coffee"], known, ["coffee"])
    left_out = text_cost(["my morning coffee"], known, ["coffee", "cats"])
    assert woven == 0
    assert bare == 1.25  # one bare box, and "coffee" said again
    assert left_out == 0.2
    assert text_cost(["Cats!", "my morning coffee"], known, ["cats"]) == 1.0  # any case, punctuation
    assert text_cost(["!!!", "my morning coffee"], known, ["coffee"]) == 0  # a box of punctuation


def test_only_words_seen_often_enough_in_training_are_known() -> None:
    assert known_words([["cats and dogs"], ["cats"], ["cats", "dogs"]], min_count=2) == ["cats", "dogs"]


def test_the_lowest_cost_candidates_are_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    model = tiny_caption_model()
    model.filter = AcceptAll()  # type: ignore[assignment]
    seen: list[list[str]] = []

    def shortest_first(gpt, tokenizer, candidates, known, length_cost=0.0):
        seen.extend(boxes for _, boxes, _ in candidates)
        return [float(len(" ".join(boxes))) for _, boxes, _ in candidates]

    monkeypatch.setattr(sampling, "caption_costs", shortest_first)
    settings = SamplingSettings(temperature=2.0, top_p=1.0, max_new_tokens=80, candidates=4, max_attempts=6)
    captions = model.write([CaptionRequest("Success-Kid", 1, n=2)], settings, rng_seed=5)
    assert len(captions) == 2
    assert len(seen) > 2  # more candidates than captions shown
    lengths = sorted(len(" ".join(boxes)) for boxes in seen)
    assert sorted(len(" ".join(c.boxes)) for c in captions) == lengths[:2]


def test_one_candidate_per_caption_skips_the_scoring(monkeypatch: pytest.MonkeyPatch) -> None:
    model = tiny_caption_model()
    model.filter = AcceptAll()  # type: ignore[assignment]
    monkeypatch.setattr(sampling, "caption_costs", lambda *args: pytest.fail("scored with one candidate"))
    settings = SamplingSettings(temperature=2.0, top_p=1.0, max_new_tokens=80, candidates=1, max_attempts=6)
    assert len(model.write([CaptionRequest("Success-Kid", 1, n=3)], settings, rng_seed=5)) == 3


def test_candidates_are_scored_by_the_model_itself() -> None:
    model = tiny_caption_model()
    known = Vocabulary(frozenset(known_words([["still waiting", "for someone to reply"]] * 3)))
    candidates = [
        ("Success-Kid", ["still waiting", "for someone to reply"], []),
        ("Success-Kid", ["still waiting", "for someone to replurk"], []),
        ("Success-Kid", ["still waiting", "for someone to reply"], ["coffee"]),
    ]
    plain, made_up, left_out = caption_costs(model.model, model.tokenizer, candidates, known)
    assert plain > 0  # nats/char of the caption under the model
    assert made_up > plain
    assert left_out == pytest.approx(plain + 0.2)
