"""Reacting, favouriting or reporting a meme that is not in the feed (queued,
failed, hidden, or missing) is a 404; a value other than 1 or -1 is a 400 that
says why; and nothing is counted."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Reaction, Template
from tests.conftest import make_meme


@pytest.mark.parametrize("status", [Meme.Status.QUEUED, Meme.Status.FAILED, Meme.Status.HIDDEN])
def test_memes_outside_the_feed_are_not_found(
    client: Client, alice: User, template: Template, status: str
) -> None:
    meme = make_meme(template, status=status)
    client.force_login(alice)
    base = f"/api/memes/{meme.pk}"
    answers = [
        client.put(f"{base}/reaction/", {"value": 1}, content_type="application/json"),
        client.delete(f"{base}/reaction/"),
        client.put(f"{base}/favourite/"),
        client.delete(f"{base}/favourite/"),
        client.post(f"{base}/report/", {"reason": "spam"}, content_type="application/json"),
        client.get(f"{base}/"),
    ]
    assert [answer.status_code for answer in answers] == [404] * 6
    assert answers[0].json()["detail"]
    meme.refresh_from_db()
    assert (meme.likes, meme.favourites, meme.reports) == (0, 0, 0)


def test_a_missing_meme_is_not_found(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.put("/api/memes/999999/reaction/", {"value": 1}, content_type="application/json")
    assert response.status_code == 404


@pytest.mark.parametrize("body", [{"value": 2}, {"value": 0}, {"value": "like"}, {"value": None}, {}, []])
def test_bad_values_are_refused_with_a_message(
    client: Client, alice: User, template: Template, body: object
) -> None:
    meme = make_meme(template)
    client.force_login(alice)
    response = client.put(f"/api/memes/{meme.pk}/reaction/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()
    assert not Reaction.objects.exists()


def test_malformed_json_is_refused(client: Client, alice: User, template: Template) -> None:
    meme = make_meme(template)
    client.force_login(alice)
    response = client.put(f"/api/memes/{meme.pk}/reaction/", "{not json", content_type="application/json")
    assert response.status_code == 400 and "JSON" in response.json()["detail"]
