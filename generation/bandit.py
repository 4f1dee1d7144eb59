"""Which templates get the next memes: Thompson sampling over like / dislike counts.

Each template's like rate is Beta(1 + likes, 1 + dislikes). For every meme to
make we draw one rate per template and pick the highest: templates people like
get most of the work, and templates with few votes still get their chance
because their Beta is wide. Plain arithmetic: no Django, no Celery.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

Key = TypeVar("Key", bound=Hashable)


@dataclass(frozen=True)
class Votes:
    likes: float = 0.0
    dislikes: float = 0.0


def choose(stats: Mapping[Key, Votes], count: int, rng: random.Random) -> list[Key]:
    """``count`` templates drawn by Thompson sampling, one draw per meme."""
    if not stats:
        return []
    keys = list(stats)
    picks = []
    for _ in range(count):
        draws = [rng.betavariate(1 + stats[key].likes, 1 + stats[key].dislikes) for key in keys]
        picks.append(keys[max(range(len(keys)), key=draws.__getitem__)])
    return picks


def shares(stats: Mapping[Key, Votes], draws: int = 2000, seed: int = 0) -> dict[Key, float]:
    """Each template's expected share of new generation (Monte Carlo over ``draws``)."""
    if not stats:
        return {}
    counts = Counter(choose(stats, draws, random.Random(seed)))
    return {key: counts[key] / draws for key in stats}


def split_into_batches(picks: list[Key], batch_size: int) -> list[tuple[Key, int]]:
    """Group picks of the same template into jobs of at most ``batch_size`` memes."""
    batches: list[tuple[Key, int]] = []
    for key, total in Counter(picks).most_common():
        while total > 0:
            size = min(total, batch_size)
            batches.append((key, size))
            total -= size
    return batches
