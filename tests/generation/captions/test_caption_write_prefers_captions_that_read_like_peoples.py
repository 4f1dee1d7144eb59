"""Reranking can prefer the candidate that reads least like the model's own samples: a
discriminator trained to tell them from people's captions adds its log-odds, weighted, to each
candidate's cost; a model directory without one costs nothing."""

import math
from pathlib import Path

import pytest

from generation.captions import Caption, CaptionRequest, SamplingSettings
from generation.captions.discriminator import (
    Discriminator,
    DiscriminatorData,
    accuracy,
    discriminator_data,
    features,
    train_discriminator,
)
from generation.captions.rerank import Vocabulary, caption_costs
from generation.captions.tiny import tiny_caption_model


def test_features_are_each_box_words_and_pairs_with_its_start_and_end_marked() -> None:
    assert features(["Y U no", "reply!"]) == {
        "y", "u", "no", "reply", "<b> y", "y u", "u no", "no </b>", "<b> reply", "reply </b>",
    }  # fmt: skip
    assert "no reply" not in features(["y u no", "reply"])  # pairs do not run across boxes


def test_the_log_odds_sum_the_weights_of_a_caption_scaled_to_unit_length() -> None:
    judge = Discriminator(bias=-0.5, weights={"aliens": 2.0, "<b> aliens": 1.0})
    assert judge.model_logit(["aliens"]) == pytest.approx(-0.5 + 3.0 / math.sqrt(3))
    assert judge.model_logit(["people"]) == pytest.approx(-0.5)
    assert Discriminator().model_logit(["aliens"]) == 0.0


def test_the_discriminator_a_command_saves_is_the_one_a_model_loads(tmp_path: Path) -> None:
    judge = Discriminator(bias=0.25, weights={"aliens": 1.5})
    judge.save(tmp_path)
    assert Discriminator.load(tmp_path) == judge
    assert Discriminator.load(tmp_path / "elsewhere") == Discriminator()


def test_candidates_pay_the_weighted_log_odds_of_reading_like_the_model() -> None:
    model = tiny_caption_model()
    judge = Discriminator(bias=0.0, weights={"aliens": 4.0})
    candidates: list[tuple[str, list[str], list[str]]] = [
        ("Success-Kid", ["it was aliens"], []),
        ("Success-Kid", ["it was people"], []),
    ]
    plain = caption_costs(model.model, model.tokenizer, candidates, Vocabulary())
    judged = caption_costs(model.model, model.tokenizer, candidates, Vocabulary(), judge, 0.5)
    assert judged[0] == pytest.approx(plain[0] + 0.5 * 4.0 / math.sqrt(len(features(["it was aliens"]))))
    assert judged[1] == pytest.approx(plain[1])
    assert caption_costs(model.model, model.tokenizer, candidates, Vocabulary(), judge, 0.0) == plain


def test_training_finds_the_words_only_the_model_writes() -> None:
    model_says = [["it was aliens", f"case {n}"] for n in range(40)]
    people_say = [["it was my cat", f"case {n}"] for n in range(40)]
    judge = train_discriminator(DiscriminatorData(model_says, people_say), c=10.0)
    assert judge.weights["aliens"] > 0 > judge.weights["cat"]
    assert accuracy(judge, DiscriminatorData(model_says, people_say)) == 1.0


class RecordingWriter:
    def __init__(self) -> None:
        self.temperatures: list[float] = []
        self.requests: list[CaptionRequest] = []

    def knows(self, slug: str) -> bool:
        return slug != "Unknown-Template"

    def write(
        self, requests: list[CaptionRequest], settings: SamplingSettings, rng_seed: int
    ) -> list[Caption]:
        self.temperatures.append(settings.temperature)
        self.requests += requests
        assert settings.candidates == 1  # raw samples: the discriminator learns what candidates look like
        return [
            Caption(["m"] * r.box_count, [], "v", {}, i) for i, r in enumerate(requests) for _ in range(r.n)
        ]


def test_training_samples_come_at_every_temperature_with_peoples_box_counts() -> None:
    writer = RecordingWriter()
    human = {"Two-Buttons": [["a", "b", "c"]] * 50, "Unknown-Template": [["x"]] * 50}
    data = discriminator_data(writer, human, count=100, seed=1)  # type: ignore[arg-type]
    assert writer.temperatures == [0.8, 0.9, 1.0]
    assert len(data.model_captions) == len(data.human_captions) == 50  # as many as people wrote
    assert {r.template_key for r in writer.requests} == {"Two-Buttons"}  # templates it knows
    assert {r.box_count for r in writer.requests} == {3}
    with pytest.raises(ValueError, match="none of these captions' templates"):
        discriminator_data(writer, {"Unknown-Template": [["x"]]}, count=10, seed=1)  # type: ignore[arg-type]


def test_the_discriminator_weight_must_not_be_negative() -> None:
    with pytest.raises(ValueError, match=r"discriminator_weight must be 0 \(off\) or more"):
        SamplingSettings(discriminator_weight=-0.1)
