"""A simulated stretch of the site's life, for the steering tests and bench/steering.py:
templates with given votes, the stock top-up every ten minutes, readers running
low now and then, workers that finish every job at once, and a clock that moves.
What comes out is each template's share of the memes made."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Sum
from django.test import override_settings
from django.utils import timezone

from feed.models import Reaction, Template
from generation import services, stock
from generation.models import GenerationJob
from tests.conftest import make_meme, make_template
from tests.feed_data import finish_every_job

STEP = timedelta(minutes=10)  # the top-up runs every minute; every ten is enough to follow a day


@dataclass(frozen=True)
class Shares:
    """Memes made per template slug in the measured stretch, and by what asked for them."""

    made: Counter[str]
    by_reason: Counter[tuple[str, str]]  # (slug, job reason) -> memes

    def of(self, slug: str) -> float:
        return self.made[slug] / max(1, sum(self.made.values()))

    def of_reason(self, slug: str, reason: str) -> float:
        return self.by_reason[slug, reason] / max(1, sum(self.made.values()))


def templates_with_votes(votes: Mapping[str, tuple[int, int]], voters: list[User]) -> dict[str, Template]:
    """One template per slug; its (likes, dislikes) cast by ``voters`` on as few memes as it takes."""
    made: dict[str, Template] = {}
    for slug, (likes, dislikes) in votes.items():
        made[slug] = make_template(slug)
        values = [Reaction.LIKE] * likes + [Reaction.DISLIKE] * dislikes
        for start in range(0, len(values), len(voters)):
            meme = make_meme(made[slug])
            for voter, value in zip(voters, values[start : start + len(voters)], strict=False):
                Reaction.objects.create(user=voter, meme=meme, value=value)
    return made


@contextmanager
def simulated_clock(start: datetime) -> Iterator[list[datetime]]:
    """``timezone.now()`` answers the first item of the yielded list; move it to move time."""
    now = [start]
    with mock.patch("django.utils.timezone.now", lambda: now[0]):
        yield now


def simulate(
    readers: list[User],
    hours: int,
    measure_hours: int,
    runs_low_per_hour: float,
    seed: int = 0,
    step: timedelta = STEP,
) -> Shares:
    """Run the site for ``hours`` and count the memes asked for in the last ``measure_hours``.

    The budgets of memes per reader and per site count real seconds, and a
    simulated day passes in seconds: they are lifted here, and have their own tests."""
    draws = random.Random(seed)
    pick = services._bandit_pick
    steps = int(timedelta(hours=hours) / step)
    per_step = runs_low_per_hour * step / timedelta(hours=1)
    with (
        override_settings(THROTTLE_FEED_JOBS="1000000/hour", THROTTLE_SITE_MEMES="1000000000/hour"),
        mock.patch.object(services, "_bandit_pick", lambda rng=None: pick(draws)),
        simulated_clock(timezone.now()) as now,
    ):
        measured_from = now[0] + timedelta(hours=hours - measure_hours)
        for number in range(steps):
            for reader in _running_low(readers, number, per_step):
                services.reader_is_running_low(reader)
            stock.top_up_stock()
            finish_every_job()
            now[0] += step
        return _shares_since(measured_from)


def simulate_runs(readers: list[User], seeds: range, **simulation: Any) -> list[Shares]:
    """``simulate`` once per seed of the bandit's draws, each from the same start:
    every run's memes and jobs are rolled back before the next."""
    runs = []
    for seed in seeds:
        with transaction.atomic():
            runs.append(simulate(readers, seed=seed, **simulation))
            transaction.set_rollback(True)
    return runs


def _running_low(readers: list[User], number: int, per_step: float) -> list[User]:
    """The readers who run low in step ``number``, in turn, at an even ``per_step`` rate."""
    first, last = int(number * per_step), int((number + 1) * per_step)
    return [readers[n % len(readers)] for n in range(first, last)]


def _shares_since(since: datetime) -> Shares:
    rows = (
        GenerationJob.objects.filter(created_at__gte=since)
        .values("template__slug", "reason")
        .annotate(asked=Sum("count"))
    )
    by_reason: Counter[tuple[str, str]] = Counter()
    made: Counter[str] = Counter()
    for row in rows:
        by_reason[row["template__slug"], row["reason"]] += row["asked"]
        made[row["template__slug"]] += row["asked"]
    return Shares(made, by_reason)


def describe(shares: Shares, slugs: list[str]) -> dict[str, Any]:
    """Each slug's share and its parts, in percent, for printing."""
    return {
        slug: {
            "share %": round(100 * shares.of(slug), 1),
            "stock %": round(100 * shares.of_reason(slug, "stock"), 1),
            "feed %": round(100 * shares.of_reason(slug, "feed"), 1),
        }
        for slug in slugs
    }
