"""A blind set can hold captions written with other sampling settings ("versus") beside the
product's and people's, so one rater judges both settings on the same templates and box counts."""

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from generation.captions import Caption, CaptionRequest, SamplingSettings
from lab.captions.judgement import Versus, build_blind_set, unblind
from lab.management.commands import judge_captions
from lab.management.commands.judge_captions import versus_settings


class SettingsEcho:
    """Writes each caption as the temperature it was asked at, so the key can be checked."""

    def knows(self, slug: str) -> bool:
        return True

    def write(
        self, requests: list[CaptionRequest], settings: SamplingSettings, rng_seed: Any = None
    ) -> list[Caption]:
        return [
            Caption([f"t{settings.temperature}"] * r.box_count, [], "v", {}, i)
            for i, r in enumerate(requests)
            for _ in range(r.n)
        ]


HELD_OUT = {"Two-Buttons": [["a", "b", "c"], ["d", "e", "f"]], "Y-U-No": [["y u no", "reply"]] * 3}


def test_the_versus_captions_share_the_templates_and_box_counts_of_the_others() -> None:
    echo = SettingsEcho()
    versus = Versus(echo, SamplingSettings(temperature=0.5))  # type: ignore[arg-type]
    items, key = build_blind_set(echo, HELD_OUT, seed=3, per_source=2, versus=versus)  # type: ignore[arg-type]
    by_source = {
        s: sorted((i.template, len(i.boxes)) for i in items if key[i.item_id] == s) for s in set(key.values())
    }
    assert set(by_source) == {"product", "versus", "human"}
    assert by_source["versus"] == by_source["product"] == by_source["human"]
    assert {i.boxes[0] for i in items if key[i.item_id] == "versus"} == {"t0.5"}
    assert {i.boxes[0] for i in items if key[i.item_id] == "product"} == {"t0.9"}


def test_without_versus_settings_a_set_has_two_sources_and_so_does_its_report() -> None:
    _, key = build_blind_set(SettingsEcho(), HELD_OUT, seed=3, per_source=2)  # type: ignore[arg-type]
    assert set(key.values()) == {"product", "human"}
    ratings = {i: {"coherent": 1, "in_format": 1, "funny": 0, "offensive": 0} for i in key}
    assert set(unblind(ratings, key)) == {"product", "human"}


def test_versus_settings_are_read_from_name_value_pairs() -> None:
    base = SamplingSettings(candidates=4)
    read = versus_settings("temperature=0.8, keyword_boost=2 bare_keyword_boxes=true", base)
    assert read == SamplingSettings(candidates=4, temperature=0.8, keyword_boost=2.0, bare_keyword_boxes=True)
    assert versus_settings("  ", base) is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("warmth=2", "not name=value of a sampling setting"),
        ("temperature", "not name=value of a sampling setting"),
        ("candidates=four", "'four' is not a value for candidates"),
        ("temperature=-1", "temperature must be above 0"),
    ],
)
def test_bad_versus_settings_are_refused_with_the_reason(text: str, problem: str) -> None:
    with pytest.raises(CommandError, match=problem):
        versus_settings(text, SamplingSettings())


class OtherModel(SettingsEcho):
    def write(
        self, requests: list[CaptionRequest], settings: SamplingSettings, rng_seed: Any = None
    ) -> list[Caption]:
        return [
            Caption(["other"] * len(c.boxes), [], "w", {}, c.request_index)
            for c in super().write(requests, settings)
        ]


def test_another_model_writes_the_versus_captions_at_the_product_settings() -> None:
    versus = Versus(OtherModel(), SamplingSettings())  # type: ignore[arg-type]
    items, key = build_blind_set(SettingsEcho(), HELD_OUT, seed=4, per_source=2, versus=versus)  # type: ignore[arg-type]
    assert {i.boxes[0] for i in items if key[i.item_id] == "versus"} == {"other"}
    assert {i.boxes[0] for i in items if key[i.item_id] == "product"} == {"t0.9"}


def test_a_missing_versus_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"No caption model at .*nowhere"):
        call_command(
            judge_captions.Command(),
            "build",
            "--out",
            str(tmp_path / "set"),
            "--versus-model",
            str(tmp_path / "nowhere"),
        )
