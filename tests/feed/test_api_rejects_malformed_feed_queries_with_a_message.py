"""Malformed sorts, template slugs, page sizes and cursors are 400s that say
what is wrong, never a 500 or a silently different feed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import signing
from django.test import Client

from feed.models import Template
from feed.ranking import sessions
from tests.conftest import make_template
from tests.feed_data import bulk_memes


@pytest.fixture
def reader(client: Client, alice: User, template: Template) -> Client:
    bulk_memes(template, 30)
    client.force_login(alice)
    return client


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("sort=best", "sort"),
        ("template=no-such-template", "template"),
        ("template=%3Cscript%3E", "template"),
        ("page_size=0", "page_size"),
        ("page_size=51", "page_size"),
        ("page_size=ten", "page_size"),
        ("cursor=garbage", "cursor"),
        ("cursor=" + "x" * 500, "cursor"),
        ("cursor=%00%FF", "cursor"),
    ],
)
def test_bad_queries_say_what_is_wrong(reader: Client, query: str, field: str) -> None:
    response = reader.get(f"/api/feed/?{query}")
    assert response.status_code == 400
    message = response.json()[field]
    assert message and all(isinstance(line, str) and line for line in message)


def test_an_inactive_template_is_refused(reader: Client) -> None:
    make_template("retired", is_active=False)
    assert reader.get("/api/feed/?template=retired").status_code == 400


def test_a_forged_cursor_is_refused(reader: Client, alice: User) -> None:
    forged = signing.dumps([1, 0, 0, 0, None, alice.pk], salt="some other salt")
    assert reader.get(f"/api/feed/?cursor={forged}").json()["cursor"] == ["This cursor is not valid."]


def test_another_readers_cursor_is_refused(reader: Client, bob: User) -> None:
    reader.force_login(bob)
    bobs_next = reader.get("/api/feed/").json()["next"]
    reader.logout()
    alice = User.objects.get(username="alice")
    reader.force_login(alice)
    assert reader.get(bobs_next).status_code == 400


def test_a_cursor_keeps_its_sort(reader: Client) -> None:
    following = reader.get("/api/feed/?sort=top").json()["next"]
    assert reader.get(following + "&sort=top").status_code == 200
    response = reader.get(following + "&sort=new")
    assert response.status_code == 400 and "another sort" in response.json()["cursor"][0]


def test_an_expired_cursor_says_to_start_again(
    reader: Client, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    following = reader.get("/api/feed/").json()["next"]
    monkeypatch.setattr(sessions, "SESSION_LIFETIME", sessions.SESSION_LIFETIME * 0)
    response = reader.get(following)
    assert response.status_code == 400 and "expired" in response.json()["cursor"][0]
