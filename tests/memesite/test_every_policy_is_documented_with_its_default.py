"""Operators set the limits from the README's Configuration table and read
what each holds in docs/RELIABILITY.md ("Costly work"): every policy of the one
limiter has a row in both, naming its variable, and the README's says its
default, the rate the settings give it when nothing is set."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from memesite.limits import POLICIES
from memesite.rates import Rate

ROOT = Path(__file__).resolve().parents[2]


def rows(document: str) -> list[str]:
    return [
        line for line in (ROOT / document).read_text(encoding="utf-8").splitlines() if line.startswith("|")
    ]


@pytest.mark.parametrize("name", list(POLICIES))
def test_the_readme_gives_each_policys_variable_and_default(name: str) -> None:
    policy = POLICIES[name]
    default = Rate.parse(getattr(settings, policy.setting))
    row = [line for line in rows("README.md") if f"`{policy.setting}`" in line.split("|")[1]]
    assert len(row) == 1 and f"`{default}`" in row[0] and f"`{name}`" in row[0]


@pytest.mark.parametrize("name", list(POLICIES))
def test_the_reliability_notes_say_what_each_policy_counts(name: str) -> None:
    policy = POLICIES[name]
    assert any(line.startswith(f"| `{name}` (`{policy.setting}`) |") for line in rows("docs/RELIABILITY.md"))
