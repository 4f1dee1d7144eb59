"""A blind set for templates the model never saw: the product writes for each as the pipeline
does for a template a curator added (no model name, the curator's examples), beside people's
captions; the curator's examples are what the rater is shown of the format."""

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from generation.captions import Caption, CaptionRequest, SamplingSettings
from lab.captions.judgement import build_new_template_set, read_new_templates
from lab.management.commands import judge_captions

FRY = {
    "name": "Futurama Fry",
    "examples": ["not sure if tired | or just lazy", "not sure if cat | or just dog"],
    "people": [
        "not sure if hungry | or just bored",
        "not sure if joke | or just mean",
        "not sure if a | or b",
    ],
}


class RequestEcho:
    """Writes each caption as what it was asked, so the test sees the request."""

    def __init__(self) -> None:
        self.requests: list[CaptionRequest] = []

    def write(
        self, requests: list[CaptionRequest], settings: SamplingSettings, rng_seed: Any = None
    ) -> list[Caption]:
        self.requests += requests
        return [
            Caption(["asked"] * r.box_count, [], "v", {}, i)
            for i, r in enumerate(requests)
            for _ in range(r.n)
        ]


def test_the_product_is_asked_as_for_a_new_template_with_the_curators_examples() -> None:
    echo = RequestEcho()
    items, key = build_new_template_set(echo, read_new_templates(json.dumps([FRY])), seed=5, per_source=2)  # type: ignore[arg-type]
    (request,) = echo.requests
    assert request.template_key is None and request.box_count == 2 and request.n == 2
    assert request.examples == FRY["examples"] and request.keywords == []
    assert sorted(key.values()) == ["human", "human", "product", "product"]
    assert {i.template for i in items} == {"Futurama Fry"}


@pytest.mark.parametrize(
    "text",
    [
        json.dumps([{**FRY, "people": ["one box only"]}]),  # a box count unlike the examples'
        json.dumps([{"name": "Fry", "examples": ["a | b"]}]),  # no people's captions
        json.dumps([{**FRY, "examples": []}]),
        json.dumps([{**FRY, "examples": "not sure if | or just"}]),  # text, not a list of captions
        json.dumps([{**FRY, "name": ""}]),
        json.dumps([FRY, FRY]),  # one name twice
        json.dumps({"name": "not a list"}),
        json.dumps([]),
    ],
)
def test_a_malformed_file_says_what_is_wrong(text: str) -> None:
    with pytest.raises(ValueError, match=r"box count|needs a name|non-empty|listed twice"):
        read_new_templates(text)


def test_the_command_refuses_a_missing_file_and_a_keyword_set_beside_it(tmp_path: Path) -> None:
    build = (judge_captions.Command(), "build", "--out", str(tmp_path / "j"), "--new-templates")
    with pytest.raises(CommandError, match=r"none\.json"):
        call_command(*build, str(tmp_path / "none.json"))
    (tmp_path / "fry.json").write_text(json.dumps([FRY]))
    with pytest.raises(CommandError, match="choose one"):
        call_command(*build, str(tmp_path / "fry.json"), "--keywords")
