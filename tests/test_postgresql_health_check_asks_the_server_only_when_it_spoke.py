"""The PostgreSQL backend's health check looks at the connection's socket
before spending a round trip: an idle connection with nothing unread is kept
without a query, one the server has dropped is found unusable (Django then
replaces it before the request's first query)."""

from __future__ import annotations

import socket
import time

import pytest
from django.db import connection, connections
from django.db.backends.postgresql import base as django_postgresql

from memesite.postgresql.base import has_pending_input


def test_a_quiet_socket_has_no_pending_input() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        assert not has_pending_input(ours.fileno())


def test_bytes_sent_by_the_other_side_are_pending_input() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(b"E")
        assert has_pending_input(ours.fileno())


def test_a_socket_the_other_side_closed_has_pending_input() -> None:
    ours, theirs = socket.socketpair()
    with ours:
        theirs.close()
        assert has_pending_input(ours.fileno())


def postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the integration run sets DATABASE_URL to PostgreSQL")


@pytest.mark.integration
def test_an_idle_healthy_connection_is_usable_without_a_query(
    transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    postgresql_only()
    connection.ensure_connection()
    asked: list[object] = []
    monkeypatch.setattr(django_postgresql.DatabaseWrapper, "is_usable", lambda self: asked.append(self))
    assert connection.is_usable()
    assert asked == []


@pytest.mark.integration
def test_a_connection_the_server_terminated_is_found_unusable(transactional_db: None) -> None:
    postgresql_only()
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()
    waited = time.monotonic()
    # The backend leaves a moment after it is signalled.
    while not has_pending_input(connection.connection.fileno()) and time.monotonic() - waited < 5:
        time.sleep(0.01)
    assert not connection.is_usable()
    connection.close()  # as Django does with an unusable connection; the test database is flushed after
