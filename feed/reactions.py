"""What a reader does to a meme: like or dislike it, take that back, favourite
it, report it. Each change locks the meme's row first: every change updates
that row anyway, so the lock adds no waiting, and it makes one reader's
double-click or two tabs apply one after the other. The meme's counters move
in the same transaction, rescored in the same UPDATE (``increment``). A meme
outside the feed (queued, failed, hidden) raises Meme.DoesNotExist."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from feed.models import Favourite, Meme, Reaction, Report
from feed.ranking.scores import score_expressions


def increment(meme_id: int, **changes: int) -> int:
    """Move counters atomically, never below zero, and rescore in the same UPDATE."""
    updates: dict[str, Any] = {name: Greatest(F(name) + delta, 0) for name, delta in changes.items()}
    if "likes" in updates or "dislikes" in updates:
        updates |= score_expressions(updates.get("likes"), updates.get("dislikes"))
    return Meme.objects.filter(pk=meme_id).update(**updates)


def _lock_visible(meme_id: int) -> None:
    if not list(Meme.objects.visible().select_for_update().filter(pk=meme_id).values_list("pk")[:1]):
        raise Meme.DoesNotExist(f"meme {meme_id} is not in the feed")


def _count_changes(before: int | None, after: int | None) -> dict[str, int]:
    """Counter moves for a reaction going from ``before`` to ``after`` (None: no reaction)."""
    changes = {"likes": 0, "dislikes": 0}
    for value, delta in ((before, -1), (after, 1)):
        if value == Reaction.LIKE:
            changes["likes"] += delta
        elif value == Reaction.DISLIKE:
            changes["dislikes"] += delta
    return changes


def _reaction_of(meme_id: int, user: Any) -> int | None:
    values = list(Reaction.objects.filter(user=user, meme_id=meme_id).values_list("value", flat=True)[:1])
    return values[0] if values else None


def set_reaction(meme_id: int, user: Any, value: int) -> None:
    """Like (1) or dislike (-1). Switching moves both counts; repeating changes nothing."""
    if value not in (Reaction.LIKE, Reaction.DISLIKE):
        raise ValueError(f"a reaction is 1 or -1, not {value!r}")
    with transaction.atomic():
        _lock_visible(meme_id)
        previous = _reaction_of(meme_id, user)
        if previous == value:
            return
        if previous is None:
            Reaction.objects.create(user=user, meme_id=meme_id, value=value)
        else:
            Reaction.objects.filter(user=user, meme_id=meme_id).update(value=value, updated_at=timezone.now())
        increment(meme_id, **_count_changes(previous, value))


def clear_reaction(meme_id: int, user: Any) -> None:
    with transaction.atomic():
        _lock_visible(meme_id)
        previous = _reaction_of(meme_id, user)
        if previous is None:
            return
        Reaction.objects.filter(user=user, meme_id=meme_id).delete()
        increment(meme_id, **_count_changes(previous, None))


def set_favourite(meme_id: int, user: Any, favourite: bool) -> None:
    with transaction.atomic():
        _lock_visible(meme_id)
        mine = Favourite.objects.filter(user=user, meme_id=meme_id)
        if mine.exists() == favourite:
            return
        if favourite:
            Favourite.objects.create(user=user, meme_id=meme_id)
        else:
            mine.delete()
        increment(meme_id, favourites=1 if favourite else -1)


def report(meme_id: int, user: Any, reason: str, note: str = "") -> bool:
    """File the reader's report once; True when it is new (a repeat counts once)."""
    with transaction.atomic():
        _lock_visible(meme_id)
        _, created = Report.objects.get_or_create(
            user=user, meme_id=meme_id, defaults={"reason": reason, "note": note}
        )
        if created:
            increment(meme_id, reports=1)
        return created
