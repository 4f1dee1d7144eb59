"""The memes a reader was served, remembered across feed sessions so that a
new visit starts with memes they have not seen (feed.ranking.sessions.unseen_by
leaves them out of a session's candidates).

SeenMeme's queryset, below feed/models.py, which builds the model's manager
from it: it reaches only its own rows (``self``), never another model."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import connection, models
from django.db.models import Count, Q
from django.utils import timezone

from feed.ranking.inserts import insert_rows

if TYPE_CHECKING:
    from feed.models import SeenMeme  # noqa: F401  (the queryset's model, named in its base class)

SEEN_MEMORY = 10_000  # the memes a reader has seen that the feed remembers, newest kept


class SeenMemeQuerySet(models.QuerySet["SeenMeme"]):
    def remember(self, reader: int, meme_ids: Collection[int], now: datetime | None = None) -> None:
        """Note that the reader was served these memes: one INSERT, a meme
        already remembered kept as it was (two sessions of one reader, or two
        tabs, serve the same meme at once without an error). Rows go in in meme
        order, so two such INSERTs wait for each other rather than deadlock."""
        at = connection.ops.adapt_datetimefield_value(now or timezone.now())
        rows = [(reader, meme, at) for meme in sorted(set(meme_ids))]
        insert_rows(self.model, ("user_id", "meme_id", "seen_at"), rows, ignore_conflicts=True)

    def forget_oldest(self, keep: int = SEEN_MEMORY) -> int:
        """Keep each reader's ``keep`` most recently seen memes and forget the
        rest, oldest first; returns how many went. The feed's hourly upkeep
        runs it, so between two runs a reader may hold an hour's pages more."""
        crowded = self.values("user_id").annotate(held=Count("meme_id")).filter(held__gt=keep)
        forgotten = 0
        for user_id in crowded.values_list("user_id", flat=True):
            mine = self.filter(user_id=user_id)
            at, meme = mine.order_by("-seen_at", "-meme_id").values_list("seen_at", "meme_id")[keep]
            older = Q(seen_at__lt=at) | Q(seen_at=at, meme_id__lte=meme)
            forgotten += mine.filter(older).delete()[0]
        return forgotten
