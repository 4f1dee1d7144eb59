"""A template the model was never trained on is written under the trained template its
curator's examples read likeliest under, with that token's embedding fitted to the examples in
its place; without examples, or with both settings off, under the generic token; a trained
template keeps its own."""

import random
from unittest.mock import patch

import pytest
import torch

from generation.captions import CaptionRequest, SamplingSettings
from generation.captions.model import CaptionModel
from generation.captions.sample import make_rows
from generation.captions.scoring import caption_nats
from generation.captions.tiny import tiny_caption_model
from generation.captions.types import Row
from generation.captions.unseen import conditioning, fitted_embedding, likeliest_template

BRIAN = ("buys a lottery ticket | wins a second ticket", "goes to the beach | it snows")
OFF = SamplingSettings(borrow_template=False)
FITTED = SamplingSettings(template_fit_steps=10)


@pytest.fixture(scope="module")
def model() -> CaptionModel:
    return tiny_caption_model(steps=80)


def test_examples_like_a_trained_templates_captions_borrow_its_name(model: CaptionModel) -> None:
    assert likeliest_template(model, BRIAN) == "Bad-Luck-Brian"
    assert likeliest_template(model, ("doing homework | memes about homework",)) == "Drake-Hotline-Bling"


def test_the_fitted_embedding_makes_the_examples_likelier_and_leaves_the_model_alone(
    model: CaptionModel,
) -> None:
    examples = ("finally fixed the bug | it snows", "found money in my old jacket | it snows")
    weights = {name: p.detach().clone() for name, p in model.model.named_parameters()}
    for p in model.model.parameters():
        p.grad = None  # what the tiny model's own training left
    start = likeliest_template(model, examples)
    fitted = fitted_embedding(model, start, examples, 20)
    embeddings = model.model.get_input_embeddings()
    assert not torch.equal(fitted, embeddings.weight[model.ids.template(start)])
    assert all(torch.equal(p, weights[name]) for name, p in model.model.named_parameters())
    assert all(p.grad is None for p in model.model.parameters())
    before = sum(caption_nats(model.model, model.tokenizer, [(start, t.split(" | ")) for t in examples]))
    row = model.ids.template(start)
    kept = embeddings.weight.data[row].clone()
    try:  # the fitted vector as the token's own embedding, for scoring
        embeddings.weight.data[row] = fitted
        after = sum(caption_nats(model.model, model.tokenizer, [(start, t.split(" | ")) for t in examples]))
    finally:
        embeddings.weight.data[row] = kept
    assert after < before


def test_rows_of_a_new_template_carry_its_stand_in_and_fitted_vector(model: CaptionModel) -> None:
    request = CaptionRequest(None, 2, examples=list(BRIAN), n=1)
    rows = make_rows(model, 0, request, 3, random.Random(1), conditioning(model, request, FITTED))
    assert {row.prompt[0] for row in rows} == {model.ids.template("Bad-Luck-Brian")}
    assert all(row.template_vector is not None and row.template_vector.shape == (32,) for row in rows)


def test_without_examples_or_for_a_trained_template_nothing_changes(model: CaptionModel) -> None:
    assert conditioning(model, CaptionRequest(None, 2), SamplingSettings()).template is None
    trained = CaptionRequest("Success-Kid", 1, examples=["goes to the beach"])
    assert conditioning(model, trained, FITTED).vector is None


@pytest.mark.parametrize(
    ("sampling", "template", "fitted"),
    [
        (FITTED, "Bad-Luck-Brian", True),
        (SamplingSettings(), "Bad-Luck-Brian", False),
        (OFF, None, False),
    ],
)
def test_both_are_sampling_settings(
    model: CaptionModel, sampling: SamplingSettings, template: str | None, fitted: bool
) -> None:
    seen: list[Row] = []

    def record(_model: object, rows: list[Row], *_: object) -> list[None]:
        seen.extend(rows)
        return [None] * len(rows)

    request = CaptionRequest(None, 2, examples=list(BRIAN), n=1)
    with patch("generation.captions.sample.sample_boxes", record):
        model.write([request], sampling, rng_seed=1)
    assert {row.prompt[0] for row in seen} == {model.ids.template(template)}
    assert {row.template_vector is not None for row in seen} == {fitted}


def test_a_new_template_samples_with_its_fitted_vector(model: CaptionModel) -> None:
    settings = SamplingSettings(temperature=1.5, top_p=1.0, max_attempts=6, template_fit_steps=10)
    captions = model.write([CaptionRequest(None, 2, examples=list(BRIAN), n=3)], settings, rng_seed=2)
    assert captions and all(len(c.boxes) == 2 for c in captions)
    assert captions[0].sampling["template_fit_steps"] == 10  # the setting travels with the caption
