"""A template the model was never trained on is written under the trained template its
curator's examples read likeliest under; without examples, or with borrowing off, under the
generic token; a trained template keeps its own."""

import random
from unittest.mock import patch

import pytest

from generation.captions import CaptionRequest, SamplingSettings
from generation.captions.model import CaptionModel
from generation.captions.sample import make_rows
from generation.captions.tiny import tiny_caption_model
from generation.captions.types import Row
from generation.captions.unseen import stand_in_template

BRIAN = ["buys a lottery ticket | wins a second ticket", "goes to the beach | it snows"]


@pytest.fixture(scope="module")
def model() -> CaptionModel:
    return tiny_caption_model(steps=80)


def test_examples_like_a_trained_templates_captions_borrow_its_name(model: CaptionModel) -> None:
    drake = CaptionRequest("Drake-New", 2, examples=["doing homework | memes about homework"])
    assert stand_in_template(model, CaptionRequest(None, 2, examples=BRIAN)) == "Bad-Luck-Brian"
    assert stand_in_template(model, drake) == "Drake-Hotline-Bling"


def test_rows_of_a_new_template_go_under_its_stand_in(model: CaptionModel) -> None:
    request = CaptionRequest(None, 2, examples=BRIAN, n=1)
    rows = make_rows(model, 0, request, 3, random.Random(1), stand_in_template(model, request))
    assert {row.prompt[0] for row in rows} == {model.ids.template("Bad-Luck-Brian")}


def test_examples_are_read_as_the_model_was_trained_and_only_of_the_box_count(model: CaptionModel) -> None:
    shouted = [text.upper() for text in BRIAN] + ["a one box caption"]
    assert stand_in_template(model, CaptionRequest(None, 2, examples=shouted)) == "Bad-Luck-Brian"
    assert stand_in_template(model, CaptionRequest(None, 3, examples=BRIAN)) is None


def test_without_examples_or_for_a_trained_template_nothing_is_borrowed(model: CaptionModel) -> None:
    assert stand_in_template(model, CaptionRequest(None, 2)) is None
    assert stand_in_template(model, CaptionRequest("Success-Kid", 1, examples=["goes to the beach"])) is None


@pytest.mark.parametrize(("borrow", "template"), [(True, "Bad-Luck-Brian"), (False, None)])
def test_borrowing_is_a_sampling_setting(model: CaptionModel, borrow: bool, template: str | None) -> None:
    seen: list[Row] = []

    def record(_model: object, rows: list[Row], *_: object) -> list[None]:
        seen.extend(rows)
        return [None] * len(rows)

    request = CaptionRequest(None, 2, examples=BRIAN, n=1)
    with patch("generation.captions.sample.sample_boxes", record):
        model.write([request], SamplingSettings(borrow_template=borrow, max_attempts=1), rng_seed=1)
    assert {row.prompt[0] for row in seen} == {model.ids.template(template)}
