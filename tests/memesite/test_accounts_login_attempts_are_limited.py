"""Five wrong passwords lock that username from that address (django-axes):
even the right password is refused until the cool-off ends."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import PASSWORD


def test_the_sixth_attempt_is_locked_out(client: Client, alice: User) -> None:
    for _ in range(5):
        assert client.post("/accounts/login/", {"username": "alice", "password": "nope"}).status_code in (
            200,
            429,
        )
    locked = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert locked.status_code in (403, 429)
    assert client.get("/favourites/").status_code == 302  # not signed in: "/" is the landing page


def test_other_readers_are_not_locked_out(client: Client, alice: User, bob: User) -> None:
    for _ in range(6):
        client.post("/accounts/login/", {"username": "alice", "password": "nope"})
    assert client.post("/accounts/login/", {"username": "bob", "password": PASSWORD}).status_code == 302
