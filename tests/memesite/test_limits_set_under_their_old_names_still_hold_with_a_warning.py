"""Six limits were whole numbers of uses per hour or minute, under names of
their own, before every limit became a policy's rate (THROTTLE_<POLICY>,
uses/period). A deployment that still sets an old name keeps its limit, and
`manage.py check` (which bin/serve runs at start-up) names the line to write
instead; setting both names is refused, since they would disagree."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OLD_NAMES = {
    "GENERATION_USER_LIMIT_PER_HOUR": ("7", "THROTTLE_GENERATION_HOURLY=7/hour"),
    "GENERATION_GLOBAL_LIMIT_PER_MINUTE": ("70", "THROTTLE_GENERATION_SITE=70/minute"),
    "GENERATION_SITE_MEMES_PER_HOUR": ("7000", "THROTTLE_SITE_MEMES=7000/hour"),
    "GENERATION_READER_JOBS_PER_HOUR": ("3", "THROTTLE_FEED_JOBS=3/hour"),
    "SIGN_UP_ADDRESS_LIMIT_PER_HOUR": ("4", "THROTTLE_SIGN_UP=4/hour"),
    "SIGN_UP_GLOBAL_LIMIT_PER_HOUR": ("40", "THROTTLE_SIGN_UP_SITE=40/hour"),
}
PRINT_LIMITS = (
    "from django.conf import settings; from memesite.limits import POLICIES; "
    "print(*(f'{p.setting}={getattr(settings, p.setting)}' for p in POLICIES.values()))"
)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {name: value for name, value in os.environ.items() if name not in OLD_NAMES}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True
    )


def test_each_old_name_still_sets_its_limit() -> None:
    result = manage("shell", "-c", PRINT_LIMITS, **{old: value for old, (value, _) in OLD_NAMES.items()})
    assert result.returncode == 0, result.stderr
    assert {line for _, line in OLD_NAMES.values()} <= set(result.stdout.split())


def test_the_check_names_the_line_to_write_instead() -> None:
    result = manage("check", **{old: value for old, (value, _) in OLD_NAMES.items()})
    assert result.returncode == 0, result.stderr
    for old, (_, line) in OLD_NAMES.items():
        assert f"(memesite.W001) {old} is an old name: write {line} instead" in result.stderr


def test_without_old_names_the_check_is_quiet() -> None:
    result = manage("check")
    assert result.returncode == 0 and "memesite.W001" not in result.stdout + result.stderr


def test_an_old_name_beside_its_new_one_stops_the_process() -> None:
    result = manage("check", GENERATION_SITE_MEMES_PER_HOUR="6000", THROTTLE_SITE_MEMES="5000/hour")
    assert result.returncode != 0
    assert "GENERATION_SITE_MEMES_PER_HOUR is the old name of THROTTLE_SITE_MEMES" in result.stderr
