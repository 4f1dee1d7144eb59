"""Pages: the next memes of a reader's frozen feed (feed.ranking.sessions) and
of their favourites, as feed items' columns (feed.ranking.items)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db.models import F, Q, QuerySet

from feed.models import FeedPosition, Meme, SeenMeme
from feed.ranking import compiled
from feed.ranking.items import MEME_COLUMNS, item_values, reader_id, with_reader_state
from feed.ranking.sessions import FeedState, extend

# A reader with fewer unseen memes than this is running low: the feed's API
# then asks generation for more (generation.services.reader_is_running_low).
LOOKAHEAD = 10
MAX_PAGE_SIZE = 50
DEFAULT_PAGE_SIZE = 10


@dataclass(frozen=True)
class Page:
    rows: list[dict[str, Any]]
    state: FeedState  # where the next page starts
    running_low: bool  # fewer than LOOKAHEAD ready memes left unserved after this page


def next_page(reader: Any, state: FeedState, size: int) -> Page:
    """The next ``size`` memes of the session, extending it when it runs short."""
    wanted = size + LOOKAHEAD
    extended = state.end - state.position < wanted
    if extended:
        state = replace(state, end=extend(state, reader.pk))
    rows = _read(reader, state, wanted)
    if len(rows) < wanted and not extended:
        # Memes hidden since they were placed left fewer than counted.
        state = replace(state, end=extend(state, reader.pk))
        rows = _read(reader, state, wanted)
    served = rows[:size]
    if served:
        SeenMeme.objects.remember(reader.pk, [row["id"] for row in served])
        state = replace(state, position=served[-1]["position"], end=max(state.end, served[-1]["position"]))
    return Page(rows=served, state=state, running_low=len(rows) < wanted)


def _read(reader: Any, state: FeedState, limit: int) -> list[dict[str, Any]]:
    read = compiled.statement(page_rows, (limit,), ("session", "position", "reader"))
    return read.rows(session=state.session, position=state.position, reader=reader.pk)


def page_rows(limit: int, session: int, position: int, reader: int) -> QuerySet[Any]:
    """The session's next ``limit`` ready memes after ``position``, in order (a
    range on its primary key), with the reader's state: a feed item's columns."""
    places = FeedPosition.objects.filter(
        session=session, position__gt=position, meme__status=Meme.Status.READY
    )
    columns = {name: F(f"meme__{name}") for name in MEME_COLUMNS}
    template = {"template_slug": F("meme__template__slug"), "template_name": F("meme__template__name")}
    rows = (
        with_reader_state(places, reader, meme="meme_id")
        .order_by("position")
        .values("position", "my_reaction", "favourited", id=F("meme_id"), **columns, **template)
    )
    return rows[:limit]


# --- favourites: newest first, keyset on (favourited at, favourite id) ------------


@dataclass(frozen=True)
class FavouritesPage:
    rows: list[dict[str, Any]]
    after: tuple[datetime, int] | None  # where the next page starts; None at the end


def favourites_page(reader: Any, after: tuple[datetime, int] | None, size: int) -> FavouritesPage:
    """The reader's own favourites, most recently favourited first."""
    mine = Q(favourited_by__user=reader)
    if after is not None:
        at, favourite_id = after
        # Row-value (created_at, id) < (at, id), spelled so the index on
        # (user, -created_at, -id) bounds the scan.
        mine &= Q(favourited_by__created_at__lte=at) & (
            Q(favourited_by__created_at__lt=at) | Q(favourited_by__id__lt=favourite_id)
        )
    memes = (
        Meme.objects.visible()
        .filter(mine)  # one filter() call: every condition is on the same favourite row
        .order_by("-favourited_by__created_at", "-favourited_by__id")
    )
    named = {"favourited_at": F("favourited_by__created_at"), "favourite_id": F("favourited_by__id")}
    rows = list(item_values(with_reader_state(memes, reader_id(reader)), **named)[: size + 1])
    last = rows[size - 1] if len(rows) > size else None
    return FavouritesPage(rows[:size], (last["favourited_at"], last["favourite_id"]) if last else None)
