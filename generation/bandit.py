"""Which templates get the next memes: Thompson sampling over like / dislike counts.

Each template's like rate is Beta(prior likes + likes, prior dislikes + dislikes).
For every meme to make we draw one rate per template and pick the highest:
templates people like get most of the work, and templates with few votes still
get their chance because their Beta is wide. Plain arithmetic: no Django, no Celery.

The prior matters as soon as there are more than a handful of templates. A flat
Beta(1, 1) says a template nobody has voted on is as likely to be liked 95% of
the time as 50%; with 19 of them beside a template liked 3 times of 4, one of
the 19 draws above 0.9 in most rounds, so the liked template got 3.6% of the
picks and each unvoted one 5.1%, and with 30 likes of 40 only 0.9%. Templates'
like rates cluster around the middle instead, and the feed already says how
tightly (a template's like rate is pulled toward 50% by 20 votes,
feed.ranking.scores.TEMPLATE_PRIOR_VOTES): the bandit starts from the same belief.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt
from scipy.special import betainc, betaln

Key = TypeVar("Key", bound=Hashable)


@dataclass(frozen=True)
class Votes:
    likes: float = 0.0
    dislikes: float = 0.0


# Every template starts as if it had 10 likes and 10 dislikes: 50%, give or take 11 points.
PRIOR = Votes(likes=10.0, dislikes=10.0)
# Points on [0, 1] at which shares() integrates; a Beta of 100,000 votes is still
# about ten points wide.
GRID_POINTS = 4000


def posterior(votes: Votes) -> tuple[float, float]:
    """The Beta(a, b) a template's like rate is drawn from."""
    return PRIOR.likes + votes.likes, PRIOR.dislikes + votes.dislikes


def choose(stats: Mapping[Key, Votes], count: int, rng: random.Random) -> list[Key]:
    """``count`` templates drawn by Thompson sampling, one draw per meme."""
    if not stats:
        return []
    keys = list(stats)
    picks = []
    for _ in range(count):
        draws = [rng.betavariate(*posterior(stats[key])) for key in keys]
        picks.append(keys[max(range(len(keys)), key=draws.__getitem__)])
    return picks


def shares(stats: Mapping[Key, Votes]) -> dict[Key, float]:
    """Each template's chance of being ``choose``'s pick, which is its expected
    share of the picks: P(its draw is the highest), integrated on a grid over the
    like rate x as ∫ pdf_i(x) · Π_{j≠i} cdf_j(x) dx. Exact and repeatable (no
    sampling), so templates with the same votes get the same share."""
    if not stats:
        return {}
    keys = list(stats)
    a, b = np.array([posterior(stats[key]) for key in keys]).T[:, :, None]  # (K, 1) each
    x = (np.arange(GRID_POINTS) + 0.5) / GRID_POINTS  # midpoints: (G,)
    pdf = np.exp((a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - betaln(a, b))  # (K, G)
    cdf = betainc(a, b, x)  # (K, G)
    others = _product_of_the_others(cdf)  # (K, G)
    mass = (pdf * others).sum(axis=1)  # (K,)
    return {key: float(share) for key, share in zip(keys, mass / mass.sum(), strict=True)}


def _product_of_the_others(rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Row i of the result is the product of every row but i, without dividing by a zero."""
    ones = np.ones((1, rows.shape[1]))
    before = np.cumprod(np.vstack([ones, rows[:-1]]), axis=0, dtype=np.float64)
    after = np.cumprod(np.vstack([ones, rows[:0:-1]]), axis=0, dtype=np.float64)[::-1]
    return before * after


def stock_floor(per_template: int) -> int:
    """The fresh memes every template holds whatever its votes: a third of the
    average, so a reader who picks any template finds some at once."""
    return per_template // 3


def stock_targets(chances: Mapping[Key, float], per_template: int, ceiling: int) -> dict[Key, int]:
    """Fresh memes each template should hold, ``per_template`` on average: the
    floor for every template and the rest shared out by the bandit's ``chances``;
    never above ``ceiling``. The total is what an even split would keep, give or
    take rounding."""
    floor = stock_floor(per_template)
    spare = (per_template - floor) * len(chances)
    return {key: min(ceiling, floor + round(spare * chance)) for key, chance in chances.items()}
