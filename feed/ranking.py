"""Paging the feed so that it neither repeats nor skips while scores move.

Scores live on the meme row (models.py): ``rating`` is a Bayesian average of
likes pulled toward the template's like rate, ``hot`` is hours since an epoch
/ 48 + rating. Both change with every reaction, so a plain keyset on
``(hot, id)`` repeats a meme that falls below the reader's cursor and skips one
that rises above it.

Each reader's scroll is therefore a *session*: a frozen order of memes kept in
``FeedPosition`` rows (session, position, meme). A page reads the next
positions of the session (an index range scan, no sort) and remembers the
memes it served for the reader (SeenMeme). When fewer than a page plus
LOOKAHEAD positions are left, the next CHUNK places are appended: one SELECT
reads the candidates (MemeQuerySet.session_candidates, models.py), feed.arrange
chooses among them in Python, and one INSERT numbers them on:

* no repeats: a meme is at most once in a session (unique constraint);
* no misses: every ready meme the session lacks is a candidate at every
  extension, whatever its score did meanwhile, so the feed only ends when the
  reader has been served all of them;
* memes the reader has not seen on an earlier visit come first; those they
  have, once none is left;
* memes made after the reader started (including those made because the
  reader ran low) enter at the next extension, in rank order;
* in ``hot`` and ``top`` one place in EXPLORE_EVERY goes to the newest memes
  with few votes, so new memes get seen and earn votes;
* in every template's feed ("Random"), no template more than its share of a
  few places in a row (feed.arrange.SHARES) while others have memes left.

The cursor carries the session, the last position served and the last position
known to exist, signed so a reader cannot write into another reader's session.
"""

from __future__ import annotations

import functools
import secrets
from collections import Counter
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, cast

from django.core import signing
from django.db import IntegrityError, connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from feed import compiled
from feed.arrange import Arrangement
from feed.models import (
    CHUNK,
    EPOCH,
    POOL,
    SORTS,
    Favourite,
    FeedPosition,
    Meme,
    Reaction,
    SeenMeme,
    Sort,
    insert_rows,
)

LOOKAHEAD = 10  # a reader with fewer unseen memes than this is running low (feed.supply)
MAX_PAGE_SIZE = 50
DEFAULT_PAGE_SIZE = 10
SESSION_LIFETIME = timedelta(hours=24)
RANDOM_BITS = 36  # session id = seconds since EPOCH << RANDOM_BITS | random bits
CURSOR_SALT = "feed.ranking.cursor"


class BadCursor(ValueError):
    """A cursor that is malformed, forged, expired, or belongs to someone else."""


@dataclass(frozen=True)
class FeedState:
    """Where a reader is in one feed session; the cursor is this, signed."""

    session: int
    sort: Sort
    template_id: int | None
    position: int = 0  # the last position served
    end: int = 0  # the last position the session is known to hold


@dataclass(frozen=True)
class Page:
    rows: list[dict[str, Any]]
    state: FeedState  # where the next page starts
    running_low: bool  # fewer than LOOKAHEAD ready memes left unserved after this page


# --- sessions and cursors ---------------------------------------------------


def _seconds_since_epoch(moment: datetime) -> int:
    return int((moment - EPOCH).total_seconds())


def start_session(sort: Sort, template_id: int | None, now: datetime | None = None) -> FeedState:
    stamp = _seconds_since_epoch(now or timezone.now())
    return FeedState(
        session=(stamp << RANDOM_BITS) | secrets.randbits(RANDOM_BITS), sort=sort, template_id=template_id
    )


def forget_sessions(older_than: timedelta = SESSION_LIFETIME, now: datetime | None = None) -> int:
    """Delete feed sessions started before ``older_than`` ago: a range on the primary key."""
    floor = _seconds_since_epoch((now or timezone.now()) - older_than) << RANDOM_BITS
    deleted, _ = FeedPosition.objects.filter(session__lt=floor).delete()
    return deleted


def encode_cursor(state: FeedState, reader_id: int | None) -> str:
    fields = [state.session, state.position, state.end, SORTS.index(state.sort), state.template_id, reader_id]
    return signing.dumps(fields, salt=CURSOR_SALT)


def decode_cursor(cursor: str, reader_id: int | None) -> FeedState:
    # Cursors must not outlive their session's rows (forget_sessions).
    max_age = SESSION_LIFETIME - timedelta(hours=1)
    try:
        fields = signing.loads(cursor, salt=CURSOR_SALT, max_age=max_age)
    except signing.SignatureExpired:
        raise BadCursor("This cursor has expired; start the feed again without one.") from None
    except signing.BadSignature:
        raise BadCursor("This cursor is not valid.") from None
    try:
        session, position, end, sort, template_id, owner = fields
        state = FeedState(int(session), SORTS[int(sort)], template_id, int(position), int(end))
    except (TypeError, ValueError, IndexError):
        raise BadCursor("This cursor is not valid.") from None
    if owner != reader_id:
        raise BadCursor("This cursor is not valid.")
    return state


# --- the columns of a feed item ---------------------------------------------------


def with_reader_state(queryset: QuerySet[Any], reader_id: int | None, meme: str = "pk") -> QuerySet[Any]:
    """Annotate my_reaction (1, -1, 0) and favourited from the reader's rows, in
    the same query: one indexed lookup per meme, never one query per item.
    ``meme`` names the meme's id in ``queryset``'s rows; None is no reader."""
    if reader_id is None:
        return cast(QuerySet[Any], queryset.annotate(my_reaction=Value(0), favourited=Value(False)))
    mine = Reaction.objects.filter(user_id=reader_id, meme=OuterRef(meme)).values("value")[:1]
    favourite = Favourite.objects.filter(user_id=reader_id, meme=OuterRef(meme))
    return cast(
        QuerySet[Any],
        queryset.annotate(my_reaction=Coalesce(Subquery(mine), 0), favourited=Exists(favourite)),
    )


def reader_id(reader: Any) -> int | None:
    return reader.pk if reader.is_authenticated else None


MEME_COLUMNS = (
    "texts",
    "image",
    "image_variants",
    "width",
    "height",
    "likes",
    "dislikes",
    "favourites",
    "created_at",
)


def item_values(memes: QuerySet[Meme], **named: Any) -> QuerySet[Any]:
    """The columns a feed item is built from (feed.serializers.FeedItemSerializer)."""
    template = {"template_slug": F("template__slug"), "template_name": F("template__name")}
    return cast(
        QuerySet[Any], memes.values("id", "my_reaction", "favourited", *MEME_COLUMNS, **template, **named)
    )


# --- pages -------------------------------------------------------------------


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


def extend(state: FeedState, reader: int) -> int:
    """Append up to CHUNK memes the session lacks (feed.arrange chooses them
    among MemeQuerySet.session_candidates), those the reader has not seen on
    an earlier visit first; returns the session's last position, or
    ``state.end`` when nothing was added."""
    chosen = Arrangement(state.sort, mixed=state.template_id is None)
    for unseen in (True, False):
        rows = _candidates(state, reader, unseen)
        chosen.offer(rows)
        chosen.fill(CHUNK, functools.partial(_others, state, reader, unseen))
        if len(chosen.memes) == CHUNK or _some_left_out(rows):
            break  # the memes the reader has seen come only once no unseen one is left
    places = [(state.session, state.end + number, meme) for number, meme in enumerate(chosen.memes, start=1)]
    try:
        insert_rows(FeedPosition, ("session", "position", "meme_id"), places)
    except IntegrityError:
        # The same cursor followed twice at once (two tabs): the other request
        # numbered the same positions first, and its extension stands. Feed
        # requests run outside transactions, where a refused statement leaves
        # nothing behind; inside one it spoils the transaction, so it goes up.
        if connection.in_atomic_block:
            raise
        return state.end
    return state.end + len(places)


def _some_left_out(rows: list[dict[str, Any]]) -> bool:
    """True when a part of the candidates was cut at POOL: the database holds more."""
    return any(count >= POOL for count in Counter(row["part"] for row in rows).values())


def _candidates(state: FeedState, reader: int, unseen: bool, away: int | None = None) -> list[dict[str, Any]]:
    select, values = candidates_statement(state, reader, unseen, away)
    return select.rows(**values)


def candidates_statement(
    state: FeedState, reader: int, unseen: bool, away: int | None = None
) -> tuple[compiled.Statement, dict[str, int]]:
    """The compiled statement that reads an extension's candidates, and its values."""
    shape = (state.sort, state.template_id is not None, unseen, away is not None)
    names = _values_of(*shape)
    template = state.template_id or 0
    values = {"session": state.session, "reader": reader, "template": template, "away": away or 0}
    return compiled.statement(session_candidates, shape, names), {name: values[name] for name in names}


def _others(state: FeedState, reader: int, unseen: bool, crowding: int) -> list[dict[str, Any]]:
    """Candidates of every template but the one crowding the places chosen so far."""
    return _candidates(state, reader, unseen, away=crowding)


def _values_of(sort: Sort, one_template: bool, unseen: bool, away_one: bool) -> tuple[str, ...]:
    """The values a shape of session_candidates takes: each must be a parameter of its SQL."""
    reader = unseen or sort != "new"  # whom it leaves seen memes out for, whose votes it reads
    wanted = {"session": True, "reader": reader, "template": one_template, "away": away_one}
    return tuple(name for name, used in wanted.items() if used)


def session_candidates(
    sort: Sort, one_template: bool, unseen: bool, away_one: bool, **values: int
) -> QuerySet[Any]:
    template, away = values.get("template"), values.get("away")
    return Meme.objects.session_candidates(
        values["session"], values.get("reader", 0), sort, template, unseen, away
    )


# --- favourites: newest first, keyset on (favourited at, favourite id) ------------

FAVOURITES_SALT = "feed.ranking.favourites"


@dataclass(frozen=True)
class FavouritesPage:
    rows: list[dict[str, Any]]
    after: tuple[datetime, int] | None  # where the next page starts; None at the end


def encode_favourites_cursor(after: tuple[datetime, int], reader_id: int | None) -> str:
    return signing.dumps([after[0].isoformat(), after[1], reader_id], salt=FAVOURITES_SALT)


def decode_favourites_cursor(cursor: str, reader_id: int | None) -> tuple[datetime, int]:
    try:
        at, favourite_id, owner = signing.loads(cursor, salt=FAVOURITES_SALT)
        after = (datetime.fromisoformat(at), int(favourite_id))
    except (signing.BadSignature, TypeError, ValueError):
        raise BadCursor("This cursor is not valid.") from None
    if owner != reader_id:
        raise BadCursor("This cursor is not valid.")
    return after


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


def meme_row(reader: Any, meme_id: int) -> dict[str, Any] | None:
    """One ready meme as a feed item's columns, with the reader's own state."""
    return item_values(
        with_reader_state(Meme.objects.visible().filter(pk=meme_id), reader_id(reader))
    ).first()
