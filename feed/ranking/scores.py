"""A meme's scores: ``rating`` for top, ``hot`` for hot.

A Bayesian average pulls memes with few votes toward the prior, so one early
like does not put a meme above one with 90 likes out of 100. Plain arithmetic
and expressions on a meme's columns, below feed/models.py, whose counters
rescore in the same UPDATE that moves them (feed.models.increment)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import F

PRIOR_VOTES = 4.0  # weight of the prior, in votes
PRIOR_LIKE_RATE = 0.5
# A template's like rate is itself pulled toward PRIOR_LIKE_RATE by this many votes.
TEMPLATE_PRIOR_VOTES = 20.0
# Hot: one unit of rating is worth this many hours of recency.
HOT_HOURS_PER_RATING = 48.0
EPOCH = datetime(2025, 1, 1, tzinfo=UTC)


def rating_of(likes: int, dislikes: int, prior: float = PRIOR_LIKE_RATE) -> float:
    return (likes + prior * PRIOR_VOTES) / (likes + dislikes + PRIOR_VOTES)


def hot_of(rating: float, created_at: datetime) -> float:
    hours = (created_at - EPOCH).total_seconds() / 3600
    return hours / HOT_HOURS_PER_RATING + rating


def score_expressions(likes: Any = None, dislikes: Any = None) -> dict[str, Any]:
    """Expressions recomputing rating and hot from the counts, for an UPDATE.

    ``likes`` and ``dislikes`` default to the row's stored counts; pass the
    expressions that set new counts to rescore in the same statement (SQL reads
    the old row on every right-hand side). hot = hours since the epoch / 48 +
    rating; the hours part is fixed per meme, so it is recovered from the
    stored hot minus the stored rating."""
    likes = F("likes") if likes is None else likes
    dislikes = F("dislikes") if dislikes is None else dislikes
    rating = (likes + F("prior") * PRIOR_VOTES) / (likes + dislikes + PRIOR_VOTES)
    return {"rating": rating, "hot": F("hot") - F("rating") + rating}
