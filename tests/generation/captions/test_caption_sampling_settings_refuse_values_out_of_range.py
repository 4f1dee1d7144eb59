"""Sampling settings out of their range are refused with a message naming the
setting and the value, before a model is loaded or a token sampled: a negative
guidance would write anti-template captions, nan would sample garbage."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from generation.captions import SamplingError, SamplingSettings


def test_the_defaults_are_in_range() -> None:
    SamplingSettings()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("temperature", 0.0, "temperature must be above 0, not 0.0"),
        ("temperature", math.nan, "temperature must be a finite number, not nan"),
        ("top_k", -1, "top_k must be 0 (off) or more, not -1"),
        ("top_p", 0.0, "top_p must be above 0 and at most 1, not 0.0"),
        ("top_p", 1.5, "top_p must be above 0 and at most 1, not 1.5"),
        ("max_new_tokens", 0, "max_new_tokens must be at least 1, not 0"),
        ("keyword_boost", -2.0, "keyword_boost must be 0 (off) or more, not -2.0"),
        ("keyword_boost", math.inf, "keyword_boost must be a finite number, not inf"),
        ("keyword_start_share", 1.5, "keyword_start_share must be between 0 and 1, not 1.5"),
        ("keyword_start_share", -0.1, "keyword_start_share must be between 0 and 1, not -0.1"),
        ("template_guidance", -1.0, "template_guidance must be 0 or more (1 = off), not -1.0"),
        ("guided_tokens", -3, "guided_tokens must be 0 or more, not -3"),
        ("max_attempts", 0, "max_attempts must be at least 1, not 0"),
        ("oversample", 0.5, "oversample must be at least 1, not 0.5"),
        ("length_cost", -0.01, "length_cost must be 0 (off) or more, not -0.01"),
        ("end_bonus", -1.0, "end_bonus must be 0 (off) or more, not -1.0"),
        ("end_bonus", math.nan, "end_bonus must be a finite number, not nan"),
    ],
)
def test_a_value_out_of_range_is_named(field: str, value: Any, message: str) -> None:
    with pytest.raises(SamplingError, match=re.escape(message)):
        SamplingSettings(**{field: value})


@pytest.mark.parametrize("flags", [["--template-guidance", "-1"], ["--temperature", "nan"], ["--top-p", "2"]])
def test_sample_captions_refuses_them_before_loading_a_model(flags: list[str], tmp_path: Any) -> None:
    with pytest.raises(CommandError, match="must be"):
        call_command("sample_captions", "--model", str(tmp_path / "no-model"), *flags)
