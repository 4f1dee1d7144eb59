"""Paging the feed so that it neither repeats nor skips while scores move.

Scores live on the meme row (models.py): ``rating`` is a Bayesian average of
likes pulled toward the template's like rate, ``hot`` is hours since an epoch
/ 48 + rating. Both change with every reaction, so a plain keyset on
``(hot, id)`` repeats a meme that falls below the reader's cursor and skips one
that rises above it.

Each reader's scroll is therefore a *session*: a frozen order of memes kept in
``FeedPosition`` rows (session, position, meme). A page reads the next
positions of the session (an index range scan, no sort). When fewer than a
page plus LOOKAHEAD positions are left, one INSERT … SELECT appends the next
CHUNK best-ranked ready memes that the session does not hold yet:

* no repeats: a meme is at most once in a session (unique constraint);
* no misses: every ready meme the session lacks is a candidate at every
  extension, whatever its score did meanwhile, so the feed only ends when the
  reader has been served all of them;
* memes made after the reader started (including those made because the
  reader ran low) enter at the next extension, in rank order;
* in ``hot`` and ``top`` one slot in EXPLORE_EVERY goes to the newest memes
  with few votes, so new memes get seen and earn votes.

The cursor carries the session, the last position served and the last position
known to exist, signed so a reader cannot write into another reader's session.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal, cast

from django.core import signing
from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from feed.models import EPOCH, Favourite, FeedPosition, Meme, Reaction, Template

Sort = Literal["hot", "new", "top"]
SORTS: tuple[Sort, ...] = ("hot", "new", "top")
ORDERINGS: dict[Sort, tuple[str, str]] = {
    "hot": ("hot", "id"),
    "new": ("created_at", "id"),
    "top": ("rating", "id"),
}
CHUNK = 100  # positions appended to a session at a time; ≥ MAX_PAGE_SIZE + LOOKAHEAD
EXPLORE_EVERY = 5  # in hot and top, every fifth position is a new meme with few votes
FEW_VOTES = 5  # likes + dislikes below this count as "few"
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


# --- the reader's own state on each meme --------------------------------------


def with_reader_state(queryset: QuerySet[Any], reader: Any, meme: str = "pk") -> QuerySet[Any]:
    """Annotate my_reaction (1, -1, 0) and favourited from the reader's rows, in
    the same query: one indexed lookup per meme, never one query per item."""
    if not reader.is_authenticated:
        return cast(QuerySet[Any], queryset.annotate(my_reaction=Value(0), favourited=Value(False)))
    mine = Reaction.objects.filter(user=reader, meme=OuterRef(meme)).values("value")[:1]
    annotated = queryset.annotate(
        my_reaction=Coalesce(Subquery(mine), 0),
        favourited=Exists(Favourite.objects.filter(user=reader, meme=OuterRef(meme))),
    )
    return cast(QuerySet[Any], annotated)


MEME_COLUMNS = ("texts", "image", "width", "height", "likes", "dislikes", "favourites", "created_at")


def item_values(queryset: QuerySet[Any], via: str = "", *extra: str, **named: Any) -> QuerySet[Any]:
    """The columns a feed item is built from (see feed.api.feed_item), read
    through the relation ``via`` ("meme__" from a FeedPosition) or from Meme."""
    fields: dict[str, Any] = {
        "template_slug": F(f"{via}template__slug"),
        "template_name": F(f"{via}template__name"),
        **named,
    }
    if via:
        fields |= {"id": F(f"{via}id")} | {column: F(via + column) for column in MEME_COLUMNS}
        return cast(QuerySet[Any], queryset.values("my_reaction", "favourited", *extra, **fields))
    return cast(
        QuerySet[Any], queryset.values("id", "my_reaction", "favourited", *MEME_COLUMNS, *extra, **fields)
    )


# --- pages -------------------------------------------------------------------


def next_page(reader: Any, state: FeedState, size: int) -> Page:
    """The next ``size`` memes of the session, extending it when it runs short."""
    wanted = size + LOOKAHEAD
    extended = state.end - state.position < wanted
    if extended:
        state = replace(state, end=state.end + extend(state))
    rows = _read(reader, state, wanted)
    if len(rows) < wanted and not extended:
        # Memes hidden since they were placed left fewer than counted.
        state = replace(state, end=state.end + extend(state))
        rows = _read(reader, state, wanted)
    served = rows[:size]
    if served:
        state = replace(state, position=served[-1]["position"], end=max(state.end, served[-1]["position"]))
    return Page(rows=served, state=state, running_low=len(rows) < wanted)


def _read(reader: Any, state: FeedState, limit: int) -> list[dict[str, Any]]:
    positions = FeedPosition.objects.filter(
        session=state.session, position__gt=state.position, meme__status=Meme.Status.READY
    ).order_by("position")
    rows = item_values(with_reader_state(positions, reader, meme="meme_id"), "meme__", "position")
    return list(rows[:limit])


def extend(state: FeedState) -> int:
    """Append up to CHUNK memes the session lacks, best first; returns how many."""
    sql, params = _extension_sql(state)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return max(int(cursor.rowcount), 0)


def _candidates(state: FeedState) -> QuerySet[Meme]:
    memes = Meme.objects.visible()
    if state.template_id is not None:
        memes = memes.filter(template_id=state.template_id)
    held = FeedPosition.objects.filter(session=state.session, meme=OuterRef("pk"))
    return memes.filter(~Exists(held))


def _extension_sql(state: FeedState) -> tuple[str, list[Any]]:
    """One INSERT … SELECT: the best CHUNK memes the session lacks, numbered on
    from the session's last position. In hot and top, ranked memes take four
    slots in five (1-4, 6-9, …) and the newest memes with few votes the fifth."""
    key = ORDERINGS[state.sort][0]
    explore = state.sort != "new"
    ranked_count = CHUNK - CHUNK // EXPLORE_EVERY if explore else CHUNK
    ranked, params = (
        _candidates(state).order_by(f"-{key}", "-id").values("id", key)[:ranked_count].query.sql_with_params()
    )
    ctes = [
        f"ranked_raw AS ({ranked})",
        f"ranked AS (SELECT id, ROW_NUMBER() OVER (ORDER BY {key} DESC, id DESC) AS rn FROM ranked_raw)",
    ]
    slots = (
        f"SELECT id, rn + (rn - 1) / {EXPLORE_EVERY - 1} AS slot FROM ranked"
        if explore
        else ("SELECT id, rn AS slot FROM ranked")
    )
    all_params = list(params)
    if explore:
        few = _candidates(state).alias(votes=F("likes") + F("dislikes")).filter(votes__lt=FEW_VOTES)
        # Twice as many as there are slots: the ranked part may already hold some.
        newest, newest_params = (
            few.order_by("-created_at", "-id")
            .values("id", "created_at")[: 2 * CHUNK // EXPLORE_EVERY]
            .query.sql_with_params()
        )
        ctes.append(
            "explore AS (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at DESC, id DESC) AS rn"
            f" FROM ({newest}) newest WHERE id NOT IN (SELECT id FROM ranked_raw))"
        )
        slots += (
            f" UNION ALL SELECT id, rn * {EXPLORE_EVERY} AS slot FROM explore"
            f" WHERE rn <= {CHUNK // EXPLORE_EVERY}"
        )
        all_params += newest_params
    table = FeedPosition._meta.db_table
    # INSERT first and WITH inside it: Python's sqlite3 reports no rowcount for a
    # statement that starts with WITH. "WHERE true" lets SQLite parse ON CONFLICT.
    sql = (
        f"INSERT INTO {table} (session, position, meme_id) WITH {', '.join(ctes)} "
        f"SELECT %s, (SELECT COALESCE(MAX(position), 0) FROM {table} WHERE session = %s)"
        f" + ROW_NUMBER() OVER (ORDER BY slot), id FROM ({slots}) slots WHERE true "
        "ON CONFLICT DO NOTHING"
    )
    return sql, [*all_params, state.session, state.session]


# --- lookups the API needs without a query per request --------------------------

_TEMPLATE_TTL_SECONDS = 30.0
_templates: dict[str, int] = {}
_templates_loaded_at = 0.0


def template_id_for(slug: str) -> int | None:
    """The id of the active template ``slug``, from a per-process map refreshed
    every 30 s or on a miss: the first page of a template's feed then costs no
    extra query. A deactivated template may be served for up to 30 s."""
    global _templates_loaded_at
    fresh = time.monotonic() - _templates_loaded_at < _TEMPLATE_TTL_SECONDS
    if slug not in _templates or not fresh:
        _templates.clear()
        _templates.update(cast(dict[str, int], dict(Template.objects.active().values_list("slug", "pk"))))
        _templates_loaded_at = time.monotonic()
    return _templates.get(slug)


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
    rows = list(item_values(with_reader_state(memes, reader), "", **named)[: size + 1])
    last = rows[size - 1] if len(rows) > size else None
    return FavouritesPage(rows[:size], (last["favourited_at"], last["favourite_id"]) if last else None)


def meme_row(reader: Any, meme_id: int) -> dict[str, Any] | None:
    """One ready meme as a feed item's columns, with the reader's own state."""
    return item_values(with_reader_state(Meme.objects.visible().filter(pk=meme_id), reader)).first()
