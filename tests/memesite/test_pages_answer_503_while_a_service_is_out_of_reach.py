"""A lost database connection, or Redis out of reach, is a 503 with
Retry-After, JSON under /api/ and a plain page elsewhere, never a traceback;
other errors stay 500s, shown with a page that needs no database. (The real
outages are in tests/integration: test_postgresql_restart_under_feed_load.py
and test_redis_restart_under_the_site.py.)"""

from __future__ import annotations

from typing import Any

import pytest
import redis
from django.db import IntegrityError, InterfaceError, OperationalError
from django.test import Client

LOST = [
    OperationalError("server closed the connection unexpectedly"),
    InterfaceError("connection already closed"),
    redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
]


def fail_with(error: Exception) -> Any:
    def fail(*args: Any) -> None:
        raise error

    return fail


@pytest.mark.parametrize("error", LOST, ids=["database", "closed connection", "redis"])
def test_the_api_answers_503_json_with_retry_after(
    client: Client, monkeypatch: Any, error: Exception
) -> None:
    monkeypatch.setattr("feed.ranking.items.meme_row", fail_with(error))
    response = client.get("/api/memes/1/")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.json() == {
        "detail": "The site is briefly unavailable. Please try again in a few seconds."
    }


def test_a_page_answers_503_with_a_plain_page(client: Client, monkeypatch: Any) -> None:
    monkeypatch.setattr("feed.views.meme_row", fail_with(LOST[0]))
    response = client.get("/m/1/")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    page = response.content.decode()
    assert "Back in a moment" in page and "Traceback" not in page and "connection" not in page
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]  # still the site's policy


def test_other_database_errors_are_500s_with_a_page_that_needs_no_database(monkeypatch: Any) -> None:
    monkeypatch.setattr("feed.views.meme_row", fail_with(IntegrityError("duplicate key value")))
    response = Client(raise_request_exception=False).get("/m/1/")
    assert response.status_code == 500 and "Retry-After" not in response
    page = response.content.decode()
    assert "Something went wrong" in page and "duplicate" not in page


def test_a_bug_under_the_api_is_a_json_500(monkeypatch: Any) -> None:
    monkeypatch.setattr("feed.ranking.items.meme_row", fail_with(IntegrityError("duplicate key value")))
    response = Client(raise_request_exception=False).get("/api/memes/1/")
    assert response.status_code == 500
    assert response.json() == {"detail": "Server error."}
