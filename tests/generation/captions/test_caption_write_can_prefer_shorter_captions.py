"""The model's captions lose their thread as they run on, so two settings ask for shorter
ones: ``length_cost`` makes every character of a candidate cost a little when choosing among
candidates, and ``end_bonus`` makes ending a box likelier while sampling, only where the
constraints allow an end."""

import pytest

from generation.captions import Caption, CaptionRequest, SamplingSettings
from generation.captions.prompt import caption_chars
from generation.captions.rerank import Vocabulary, caption_costs
from generation.captions.text import caption_text
from generation.captions.tiny import tiny_caption_model


class AcceptAll:
    def reason(self, boxes: list[str]) -> str | None:
        return None


def test_a_length_cost_adds_its_share_per_character() -> None:
    model = tiny_caption_model()
    candidates: list[tuple[str, list[str], list[str]]] = [
        ("Success-Kid", ["still waiting"], []),
        ("Success-Kid", ["still waiting", "for someone to reply to my message"], []),
    ]
    plain = caption_costs(model.model, model.tokenizer, candidates, Vocabulary())
    costed = caption_costs(model.model, model.tokenizer, candidates, Vocabulary(), length_cost=0.01)
    for before, after, (_, boxes, _) in zip(plain, costed, candidates, strict=True):
        assert after == pytest.approx(before + 0.01 * caption_chars(boxes))


def test_a_large_length_cost_shows_the_shortest_candidates() -> None:
    model = tiny_caption_model()
    model.filter = AcceptAll()  # type: ignore[assignment]
    settings = SamplingSettings(temperature=2.0, top_p=1.0, max_new_tokens=60, candidates=8, max_attempts=6)
    request = [CaptionRequest("Success-Kid", 1, n=2)]
    free = model.write(request, settings, rng_seed=7)
    short = model.write(request, SamplingSettings(**settings.to_dict() | {"length_cost": 10.0}), rng_seed=7)
    # The same seed draws the same candidates; the cost only changes which are shown.
    assert sum(len(caption_text(c.boxes)) for c in short) <= sum(len(caption_text(c.boxes)) for c in free)
    assert all(c.sampling["length_cost"] == 10.0 for c in short)


def test_an_end_bonus_writes_shorter_captions_with_their_box_counts() -> None:
    model = tiny_caption_model()
    model.filter = AcceptAll()  # type: ignore[assignment]
    requests = [CaptionRequest("Success-Kid", 2, n=30)]
    plain = SamplingSettings(temperature=1.5, top_p=1.0, max_new_tokens=60, candidates=1)
    bonus = SamplingSettings(**plain.to_dict() | {"end_bonus": 4.0})
    long = model.write(requests, plain, rng_seed=3)
    short = model.write(requests, bonus, rng_seed=3)
    assert len(short) == 30 and all(len(c.boxes) == 2 for c in short)
    assert mean_chars(short) < mean_chars(long)


def mean_chars(captions: list[Caption]) -> float:
    return sum(len(caption_text(c.boxes)) for c in captions) / len(captions)
