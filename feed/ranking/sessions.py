"""Frozen feeds: paging the feed so that it neither repeats nor skips while scores move.

Scores live on the meme row (feed.ranking.scores): ``rating`` is a Bayesian
average of likes pulled toward the template's like rate, ``hot`` is hours
since an epoch / 48 + rating. Both change with every reaction, so a plain
keyset on ``(hot, id)`` repeats a meme that falls below the reader's cursor and
skips one that rises above it.

Each reader's scroll is therefore a *session*: a frozen order of memes kept in
``FeedPosition`` rows (session, position, meme). A page reads the next
positions of the session (feed.ranking.pages: an index range scan, no sort)
and remembers the memes it served for the reader (feed.ranking.seen). When
fewer than a page plus LOOKAHEAD positions are left, the next CHUNK places are
appended: one SELECT reads the candidates (``session_candidates``, below),
feed.ranking.arrangement chooses among them in Python, and one INSERT numbers
them on:

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
  few places in a row (feed.ranking.arrangement.SHARES) while others have
  memes left.

The cursor (feed.ranking.cursors) carries the session, the last position
served and the last position known to exist, signed so a reader cannot write
into another reader's session.
"""

from __future__ import annotations

import functools
import secrets
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, connection, models
from django.db.models import F, Q, Value, Window
from django.db.models.functions import RowNumber
from django.db.models.lookups import GreaterThanOrEqual
from django.utils import timezone

from feed.models import FeedPosition, Meme, MemeQuerySet, Reaction, SeenMeme
from feed.ranking import compiled
from feed.ranking.arrangement import Arrangement
from feed.ranking.inserts import insert_rows
from feed.ranking.scores import EPOCH
from feed.ranking.sorts import FEW_VOTES, Part, Sort, order

CHUNK = 100  # memes appended to a feed session at a time; ≥ the largest page + the look-ahead
# Candidates read per part of an extension: a part may have to fill every
# place (the other has run out); when one template crowds them,
# feed.ranking.arrangement reads other templates' memes besides.
POOL = CHUNK
SESSION_LIFETIME = timedelta(hours=24)
RANDOM_BITS = 36  # session id = seconds since EPOCH << RANDOM_BITS | random bits


@dataclass(frozen=True)
class FeedState:
    """Where a reader is in one feed session; the cursor is this, signed."""

    session: int
    sort: Sort
    template_id: int | None
    position: int = 0  # the last position served
    end: int = 0  # the last position the session is known to hold


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


# --- extending a session -----------------------------------------------------


def extend(state: FeedState, reader: int) -> int:
    """Append up to CHUNK memes the session lacks (feed.ranking.arrangement
    chooses them among ``session_candidates``), those the reader has not seen
    on an earlier visit first; returns the session's last position, or
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


def _others(state: FeedState, reader: int, unseen: bool, crowding: int) -> list[dict[str, Any]]:
    """Candidates of every template but the one crowding the places chosen so far."""
    return _candidates(state, reader, unseen, away=crowding)


def candidates_statement(
    state: FeedState, reader: int, unseen: bool, away: int | None = None
) -> tuple[compiled.Statement, dict[str, int]]:
    """The compiled statement that reads an extension's candidates, and its values."""
    shape = (state.sort, state.template_id is not None, unseen, away is not None)
    names = _values_of(*shape)
    template = state.template_id or 0
    values = {"session": state.session, "reader": reader, "template": template, "away": away or 0}
    return compiled.statement(_candidates_of_shape, shape, names), {name: values[name] for name in names}


def _values_of(sort: Sort, one_template: bool, unseen: bool, away_one: bool) -> tuple[str, ...]:
    """The values a shape of session_candidates takes: each must be a parameter of its SQL."""
    reader = unseen or sort != "new"  # whom it leaves seen memes out for, whose votes it reads
    wanted = {"session": True, "reader": reader, "template": one_template, "away": away_one}
    return tuple(name for name, used in wanted.items() if used)


def _candidates_of_shape(
    sort: Sort, one_template: bool, unseen: bool, away_one: bool, **values: int
) -> models.QuerySet[Any]:
    template, away = values.get("template"), values.get("away")
    return session_candidates(values["session"], values.get("reader", 0), sort, template, unseen, away)


# --- a session's candidates ------------------------------------------------------


def session_candidates(
    session: int, reader: int, sort: Sort, template_id: int | None, unseen: bool, away: int | None
) -> models.QuerySet[Any]:
    """Rows (id, template, part) of ready memes the feed session lacks, best
    first within each part; feed.ranking.arrangement chooses the next places
    among them.

    In new, one part: the newest. In hot and top, two: RANKED, by the
    sort's key, holds the memes with enough votes to rank them (and those
    the reader voted on, so their vote ranks them); FRESH, the newest memes
    with few votes the reader has not voted on, which take every fifth
    place so new memes get seen and earn votes. A fresh batch of unvoted
    memes therefore leads new but not hot or top. ``unseen`` keeps to the
    memes the reader has not seen on an earlier visit; ``away`` leaves out
    one template (to find others' memes when one template crowds the top)."""
    wanted = outside_session(Meme.objects.visible().of_template(template_id), session)
    if unseen:
        wanted = unseen_by(wanted, reader)
    if away is not None:
        wanted = wanted.exclude(template_id=away)
    if sort == "new":
        return _part(wanted, Part.RANKED, "new")
    voted = Reaction.objects.filter(user_id=reader).values("meme_id")
    enough = Q(GreaterThanOrEqual(F("likes") + F("dislikes"), FEW_VOTES))
    ranked = _part(wanted.filter(Q(pk__in=voted) | enough), Part.RANKED, sort)
    fresh = _part(wanted.with_few_votes().exclude(pk__in=voted), Part.FRESH, "new")
    return ranked.union(fresh, all=True)


def outside_session(memes: MemeQuerySet, session: int) -> MemeQuerySet:
    """Memes the feed session does not hold yet. ``NOT IN`` a subquery, which
    PostgreSQL reads once into a hash: compared one by one with every held
    meme (NOT EXISTS, planned as a nested loop), the sixth extension of a
    session cost three times the first (docs/feed.md)."""
    return memes.exclude(pk__in=FeedPosition.objects.filter(session=session).values("meme_id"))


def unseen_by(memes: MemeQuerySet, reader: int) -> MemeQuerySet:
    """Memes the reader has not been served in any feed session they
    remember (feed.ranking.seen): ``NOT IN`` their at most SEEN_MEMORY rows,
    read once into a hash from the (user, meme) primary key."""
    return memes.exclude(pk__in=SeenMeme.objects.filter(user_id=reader).values("meme_id"))


def _part(memes: MemeQuerySet, part: Part, sort: Sort) -> models.QuerySet[Any]:
    """The first POOL memes in the sort's order as rows (id, template, part,
    n), n their place in that order (a UNION keeps no order of its own)."""
    n = Window(RowNumber(), order_by=order(sort))
    rows = memes.best_first(sort).annotate(n=n).values("id", "template_id", "n", part=Value(part.value))
    if connection.features.supports_slicing_ordering_in_compound:
        # A LIMIT: PostgreSQL then plans to read only POOL entries of the
        # sort's index. Counted by the window instead, the same plan was
        # costed as reading the whole index, and at a million memes that
        # cost made PostgreSQL compile it with JIT, 280-490 ms a time.
        return rows[:POOL]
    return rows.order_by().filter(n__lte=POOL)  # SQLite allows no LIMIT nor ORDER BY in a UNION's parts
