"""The same cursor followed twice at once (two tabs) extends one session from
two requests: on PostgreSQL the second extension waits for the first, is
refused whole by the primary key, and the session holds each meme once."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections, transaction

from feed.models import FeedPosition
from feed.ranking import sessions
from feed.ranking.sessions import CHUNK
from tests.conftest import make_template
from tests.feed_data import bulk_memes

pytestmark = pytest.mark.integration


def test_a_concurrent_extension_of_the_same_session_adds_nothing(transactional_db: None) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the integration run sets DATABASE_URL to PostgreSQL")
    bulk_memes(make_template("tabs"), 150)
    reader = User.objects.create_user("alice").pk
    state = sessions.start_session("new", None)  # no exploration slots: every place filled
    added: list[int] = []

    def second_tab() -> None:
        try:
            added.append(sessions.extend(state, reader))
        finally:
            connections.close_all()

    with transaction.atomic():
        first = sessions.extend(state, reader)  # its rows stay uncommitted while the other tab extends
        other = threading.Thread(target=second_tab)
        other.start()
        other.join(timeout=1)
        assert other.is_alive(), "the second extension should wait for the first"
    other.join(timeout=10)
    assert added == [state.end]
    held = list(FeedPosition.objects.filter(session=state.session).values_list("position", "meme_id"))
    assert len(held) == first == CHUNK
    assert len({meme for _, meme in held}) == len(held)
    assert sorted(position for position, _ in held) == list(range(1, first + 1))
