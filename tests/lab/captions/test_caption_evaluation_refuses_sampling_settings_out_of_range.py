"""evaluate_captions refuses sampling settings out of their range with the setting's own message,
before it loads a model or reads a caption."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from lab.management.commands import evaluate_captions


def evaluate(tmp_path: Any, *flags: str) -> None:
    """The command on an empty folder with no model: only the settings can be judged."""
    no_model = str(tmp_path / "no-model")
    call_command(evaluate_captions.Command(), "--data", str(tmp_path), "--model", no_model, *flags)


def test_evaluate_captions_refuses_a_negative_guidance_before_loading_a_model(tmp_path: Any) -> None:
    with pytest.raises(CommandError, match="template_guidance must be 0 or more"):
        evaluate(tmp_path, "--template-guidance", "-0.5")


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        ("--end-bonus", "end_bonus must be 0 (off) or more"),
        ("--length-cost", "length_cost must be 0 (off) or more"),
    ],
)
def test_evaluate_captions_refuses_a_negative_length_setting(flag: str, message: str, tmp_path: Any) -> None:
    with pytest.raises(CommandError, match=re.escape(message)):
        evaluate(tmp_path, flag, "-1")
