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

import functools
import json
import re
import secrets
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, cast

from django.core import signing
from django.db import IntegrityError, connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from feed.models import EPOCH, FEW_VOTES, Favourite, FeedPosition, Meme, Reaction, Template

Sort = Literal["hot", "new", "top"]
SORTS: tuple[Sort, ...] = ("hot", "new", "top")
ORDERINGS: dict[Sort, tuple[str, str]] = {
    "hot": ("hot", "id"),
    "new": ("created_at", "id"),
    "top": ("rating", "id"),
}
CHUNK = 100  # positions appended to a session at a time; ≥ MAX_PAGE_SIZE + LOOKAHEAD
EXPLORE_EVERY = 5  # in hot and top, every fifth position is a new meme with few votes
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


def with_reader_state(queryset: QuerySet[Meme], reader: Any) -> QuerySet[Meme]:
    """Annotate my_reaction (1, -1, 0) and favourited from the reader's rows, in
    the same query: one indexed lookup per meme, never one query per item."""
    if not reader.is_authenticated:
        return queryset.annotate(my_reaction=Value(0), favourited=Value(False))
    mine = Reaction.objects.filter(user=reader, meme=OuterRef("pk")).values("value")[:1]
    return queryset.annotate(
        my_reaction=Coalesce(Subquery(mine), 0),
        favourited=Exists(Favourite.objects.filter(user=reader, meme=OuterRef("pk"))),
    )


MEME_COLUMNS = ("texts", "image", "width", "height", "likes", "dislikes", "favourites", "created_at")


def item_values(queryset: QuerySet[Meme], **named: Any) -> QuerySet[Any]:
    """The columns a feed item is built from (see feed.api.feed_item)."""
    fields = {"template_slug": F("template__slug"), "template_name": F("template__name"), **named}
    return cast(QuerySet[Any], queryset.values("id", "my_reaction", "favourited", *MEME_COLUMNS, **fields))


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
    params = {
        "session": state.session,
        "position": state.position,
        "reader": reader.pk if reader.is_authenticated else None,
        "limit": limit,
    }
    with connection.cursor() as cursor:
        _execute(cursor, READ, params)
        names = [column[0] for column in cursor.description]
        return [_converted(dict(zip(names, row, strict=True))) for row in cursor.fetchall()]


# PostgreSQL plans the statements a page runs in about as long as it runs them
# (the read: 0.45 ms against 0.3 ms at a million memes; an extension: 0.45 ms
# against 0.9 ms), so each connection prepares them all, once, on its first page.
READ = "memesite_feed_page"
PARAMETER = re.compile(r"%\((\w+)\)s")
PARAMETER_TYPES = {
    "session": "bigint",
    "position": "integer",
    "reader": "integer",
    "limit": "integer",
    "template": "bigint",
}
_prepared_on: set[tuple[int, int]] = set()


def _execute(cursor: Any, name: str, params: dict[str, Any]) -> None:
    """Run one of the feed's statements: prepared on PostgreSQL, as SQL on SQLite."""
    if connection.vendor != "postgresql":
        cursor.execute(_statements()[name], params)
        return
    raw = connection.connection
    key = (id(raw), raw.get_backend_pid()) if raw is not None else (0, 0)
    if key not in _prepared_on:
        # Prepared and run in one round trip (and, for Django, one query). The
        # DEALLOCATE clears a half-done earlier attempt; nothing else here prepares.
        cursor.execute(f"DEALLOCATE ALL; {_prepare_all()}; {_run(name)}", params)
        _prepared_on.add(key)
        return
    cursor.execute(_run(name), params)


@functools.cache
def _statements() -> dict[str, str]:
    """Every statement a feed page runs, by name, with %(name)s parameters."""
    statements = {READ: _read_sql()}
    for sort in SORTS:
        for one_template in (False, True):
            statements[_extension_name(sort, one_template)] = _extension_sql(sort, one_template)
    return statements


@functools.cache
def _prepare_all() -> str:
    return "; ".join(_prepare(name, sql) for name, sql in _statements().items())


def _parameters(sql: str) -> list[str]:
    return list(dict.fromkeys(PARAMETER.findall(sql)))


def _prepare(name: str, sql: str) -> str:
    names = _parameters(sql)
    numbered = PARAMETER.sub(lambda found: f"${names.index(found[1]) + 1}", sql)
    return f"PREPARE {name} ({', '.join(PARAMETER_TYPES[each] for each in names)}) AS {numbered}"


@functools.cache
def _run(name: str) -> str:
    arguments = ", ".join(f"%({each})s" for each in _parameters(_statements()[name]))
    return f"EXECUTE {name} ({arguments})"


def _converted(row: dict[str, Any]) -> dict[str, Any]:
    """Python values from a raw row: JSON arrives as text; SQLite's datetimes
    arrive as text or, parsed by Django's converter, without their zone (UTC)."""
    if isinstance(row["texts"], str):
        row["texts"] = json.loads(row["texts"])
    if isinstance(row["created_at"], str):
        row["created_at"] = datetime.fromisoformat(row["created_at"])
    if row["created_at"].tzinfo is None:
        row["created_at"] = row["created_at"].replace(tzinfo=UTC)
    row["favourited"] = bool(row["favourited"])
    return row


# The two statements every feed page runs are written out in SQL and built once
# per process: Django's query compiler spends about a millisecond on each, more
# than PostgreSQL spends running them (bench/feed.py). They read as the ORM
# queries in item_values / with_reader_state do, and the feed tests hold them to it.
MEME, POSITION, TEMPLATE = Meme._meta.db_table, FeedPosition._meta.db_table, Template._meta.db_table
REACTION, FAVOURITE = Reaction._meta.db_table, Favourite._meta.db_table
READY = Meme.Status.READY.value


@functools.cache
def _read_sql() -> str:
    columns = ", ".join(f"m.{column}" for column in MEME_COLUMNS)
    return f"""
        SELECT p.position, m.id, {columns}, t.slug AS template_slug, t.name AS template_name,
            COALESCE((SELECT r.value FROM {REACTION} r
                      WHERE r.user_id = %(reader)s AND r.meme_id = m.id), 0) AS my_reaction,
            EXISTS (SELECT 1 FROM {FAVOURITE} f
                    WHERE f.user_id = %(reader)s AND f.meme_id = m.id) AS favourited
        FROM {POSITION} p
        JOIN {MEME} m ON m.id = p.meme_id
        JOIN {TEMPLATE} t ON t.id = m.template_id
        WHERE p.session = %(session)s AND p.position > %(position)s AND m.status = '{READY}'
        ORDER BY p.position
        LIMIT %(limit)s"""


def extend(state: FeedState) -> int:
    """Append up to CHUNK memes the session lacks, best first; returns how many."""
    params = {"session": state.session, "template": state.template_id}
    try:
        with connection.cursor() as cursor:
            _execute(cursor, _extension_name(state.sort, state.template_id is not None), params)
            return max(int(cursor.rowcount), 0)
    except IntegrityError:
        # The same cursor followed twice at once (two tabs): the other request
        # numbered the same positions first, and its extension stands. Feed
        # requests run outside transactions, where a refused statement leaves
        # nothing behind; inside one it spoils the transaction, so it goes up.
        if connection.in_atomic_block:
            raise
        return 0


def _extension_name(sort: Sort, one_template: bool) -> str:
    return f"memesite_feed_extend_{sort}" + ("_template" if one_template else "")


@functools.cache
def _extension_sql(sort: Sort, one_template: bool) -> str:
    """One INSERT … SELECT: the best CHUNK memes the session lacks, numbered on
    from the session's last position. In hot and top, ranked memes take four
    slots in five (1-4, 6-9, …) and the newest memes with few votes the fifth.

    INSERT comes first and WITH inside it: Python's sqlite3 reports no rowcount
    for a statement that starts with WITH. No ON CONFLICT clause: its checks
    cost a third of the statement, and the primary key refuses a concurrent
    extension whole (see extend)."""
    key = ORDERINGS[sort][0]
    explore = sort != "new"
    ranked_count = CHUNK - CHUNK // EXPLORE_EVERY if explore else CHUNK
    wanted = (
        f"m.status = '{READY}'"
        + (" AND m.template_id = %(template)s" if one_template else "")
        + f" AND m.id NOT IN (SELECT held.meme_id FROM {POSITION} held WHERE held.session = %(session)s)"
    )
    ctes = [
        f"ranked_raw AS (SELECT m.id, m.{key} FROM {MEME} m WHERE {wanted}"
        f" ORDER BY m.{key} DESC, m.id DESC LIMIT {ranked_count})",
        f"ranked AS (SELECT id, ROW_NUMBER() OVER (ORDER BY {key} DESC, id DESC) AS rn FROM ranked_raw)",
    ]
    slots = f"SELECT id, rn + (rn - 1) / {EXPLORE_EVERY - 1} AS slot FROM ranked"
    if not explore:
        slots = "SELECT id, rn AS slot FROM ranked"
    else:
        # Twice as many newest memes as slots: the ranked part may hold some already.
        newest = (
            f"SELECT m.id, m.created_at FROM {MEME} m WHERE {wanted} AND m.likes + m.dislikes < {FEW_VOTES}"
            f" ORDER BY m.created_at DESC, m.id DESC LIMIT {2 * CHUNK // EXPLORE_EVERY}"
        )
        ctes.append(
            "explore AS (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at DESC, id DESC) AS rn"
            f" FROM ({newest}) newest WHERE id NOT IN (SELECT id FROM ranked_raw))"
        )
        slots += (
            f" UNION ALL SELECT id, rn * {EXPLORE_EVERY} AS slot FROM explore"
            f" WHERE rn <= {CHUNK // EXPLORE_EVERY}"
        )
    return (
        f"INSERT INTO {POSITION} (session, position, meme_id) WITH {', '.join(ctes)} "
        f"SELECT %(session)s, (SELECT COALESCE(MAX(position), 0) FROM {POSITION} WHERE session = %(session)s)"
        f" + ROW_NUMBER() OVER (ORDER BY slot), id FROM ({slots}) slots"
    )


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
    rows = list(item_values(with_reader_state(memes, reader), **named)[: size + 1])
    last = rows[size - 1] if len(rows) > size else None
    return FavouritesPage(rows[:size], (last["favourited_at"], last["favourite_id"]) if last else None)


def meme_row(reader: Any, meme_id: int) -> dict[str, Any] | None:
    """One ready meme as a feed item's columns, with the reader's own state."""
    return item_values(with_reader_state(Meme.objects.visible().filter(pk=meme_id), reader)).first()
