"""The feed's orders, and the memes too new to rank that each takes in.

Plain values and expressions on a meme's columns, below feed/models.py: its
partial indexes are spelled with them (Meme.Meta), and so are the feed's
querysets, so an index and the query it serves cannot drift apart."""

from __future__ import annotations

from typing import Literal

from django.db import models
from django.db.models import F, OrderBy, Q
from django.db.models.lookups import LessThan

FEW_VOTES = 5  # likes + dislikes below this count as "few": such memes get shown to earn votes
FEW_VOTES_READY = Q(status="ready") & Q(LessThan(F("likes") + F("dislikes"), FEW_VOTES))

# The feed's orders, each served by a partial index on ready memes (Meme.Meta).
Sort = Literal["hot", "new", "top"]
SORTS: tuple[Sort, ...] = ("hot", "new", "top")
SORT_KEYS: dict[Sort, str] = {"hot": "hot", "new": "created_at", "top": "rating"}
EXPLORE_EVERY = 5  # in hot and top, every fifth place goes to the newest memes with few votes


class Part(models.IntegerChoices):
    """Where a candidate for a feed session's next places comes from."""

    RANKED = 1  # by the sort's key: in hot and top, memes with enough votes (or the reader's vote)
    FRESH = 2  # in hot and top, the newest memes with few votes the reader has not voted on


def order(sort: Sort) -> list[OrderBy]:
    """Best first by the sort's key, ties by the newest id: a total order."""
    return [F(SORT_KEYS[sort]).desc(), F("id").desc()]
