"""Reactions have their own rate limit (THROTTLE_REACTIONS, per reader); a
refusal is DRF's 429 with Retry-After and a detail."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from tests.conftest import make_meme


def test_the_fourth_reaction_in_a_minute_waits(
    client: Client, alice: User, template: Template, settings: Any
) -> None:
    settings.THROTTLE_REACTIONS = "3/minute"
    meme = make_meme(template)
    client.force_login(alice)
    answers = [
        client.put(f"/api/memes/{meme.pk}/reaction/", {"value": value}, content_type="application/json")
        for value in (1, -1, 1, -1)
    ]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    refused = answers[-1]
    # One use comes back every 20 s at 3 a minute.
    assert 1 <= int(refused["Retry-After"]) <= 20
    assert refused.json() == {
        "detail": f"Request was throttled. Expected available in {refused['Retry-After']} seconds."
    }


def test_readers_are_limited_apart(
    client: Client, alice: User, bob: User, template: Template, settings: Any
) -> None:
    settings.THROTTLE_REACTIONS = "1/minute"
    meme = make_meme(template)
    codes = []
    for reader in (alice, bob):
        client.force_login(reader)
        codes.append(client.put(f"/api/memes/{meme.pk}/favourite/").status_code)
    assert codes == [200, 200]
