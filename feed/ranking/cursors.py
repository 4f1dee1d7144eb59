"""Cursors: where a reader's next page starts, signed so that no one can forge
one or follow another reader's. A feed cursor is a FeedState (its session,
the last position served and the last known to exist); a favourites cursor
is the last favourite served (when it was favourited, its id)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core import signing

from feed.ranking import sessions
from feed.ranking.sessions import FeedState
from feed.ranking.sorts import SORTS

# The salts name the module the cursors were first signed in: changed, every
# cursor in a reader's open tab would stop working.
CURSOR_SALT = "feed.ranking.cursor"
FAVOURITES_SALT = "feed.ranking.favourites"


class BadCursor(ValueError):
    """A cursor that is malformed, forged, expired, or belongs to someone else."""


def encode_cursor(state: FeedState, reader_id: int | None) -> str:
    fields = [state.session, state.position, state.end, SORTS.index(state.sort), state.template_id, reader_id]
    return signing.dumps(fields, salt=CURSOR_SALT)


def decode_cursor(cursor: str, reader_id: int | None) -> FeedState:
    # Cursors must not outlive their session's rows (forget_sessions).
    max_age = sessions.SESSION_LIFETIME - timedelta(hours=1)
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
