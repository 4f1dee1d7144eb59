"""PUT sets a like or dislike (switching moves both counts), DELETE removes it,
repeating changes nothing; every answer carries fresh counts and my_reaction,
and rating and hot follow the counts in the same statement."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Reaction, Template
from feed.ranking.scores import rating_of
from tests.conftest import make_meme


@pytest.fixture
def meme(template: Template) -> Meme:
    return make_meme(template)


def put(client: Client, meme: Meme, value: object) -> dict[str, object]:
    response = client.put(
        f"/api/memes/{meme.pk}/reaction/", {"value": value}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    return dict(response.json())


def test_like_then_switch_to_dislike_then_remove(client: Client, alice: User, meme: Meme) -> None:
    client.force_login(alice)
    assert put(client, meme, 1).items() >= {"likes": 1, "dislikes": 0, "my_reaction": 1}.items()
    assert put(client, meme, -1).items() >= {"likes": 0, "dislikes": 1, "my_reaction": -1}.items()
    removed = client.delete(f"/api/memes/{meme.pk}/reaction/").json()
    assert removed.items() >= {"likes": 0, "dislikes": 0, "my_reaction": 0}.items()
    assert not Reaction.objects.exists()


def test_repeating_a_like_counts_it_once(client: Client, alice: User, meme: Meme) -> None:
    client.force_login(alice)
    put(client, meme, 1)
    assert put(client, meme, 1)["likes"] == 1
    assert client.delete(f"/api/memes/{meme.pk}/reaction/").json()["likes"] == 0
    assert client.delete(f"/api/memes/{meme.pk}/reaction/").json()["likes"] == 0


def test_each_reader_counts_once(client: Client, alice: User, bob: User, charlie: User, meme: Meme) -> None:
    for reader, value in ((alice, 1), (bob, 1), (charlie, -1)):
        client.force_login(reader)
        put(client, meme, value)
    client.force_login(bob)
    assert put(client, meme, 1).items() >= {"likes": 2, "dislikes": 1, "my_reaction": 1}.items()


def test_rating_and_hot_follow_the_counts(client: Client, alice: User, bob: User, meme: Meme) -> None:
    meme.refresh_from_db()
    recency = meme.hot - meme.rating
    for reader, value in ((alice, 1), (bob, -1), (alice, -1)):
        client.force_login(reader)
        put(client, meme, value)
    meme.refresh_from_db()
    assert (meme.likes, meme.dislikes) == (0, 2)
    assert meme.rating == pytest.approx(rating_of(0, 2, meme.prior))
    assert meme.hot == pytest.approx(recency + meme.rating)
