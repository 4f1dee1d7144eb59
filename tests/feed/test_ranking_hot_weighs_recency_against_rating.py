"""hot = hours since 2025-01-01 / 48 + rating: a day younger is worth half a
point of rating, so fresh memes rise and old favourites sink slowly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Template
from feed.ranking.scores import hot_of
from tests.feed_data import bulk_memes

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def test_a_day_of_age_costs_half_a_point_of_rating() -> None:
    assert hot_of(0.5, NOW) - hot_of(0.5, NOW - timedelta(hours=24)) == pytest.approx(0.5)
    assert hot_of(0.9, NOW - timedelta(hours=24)) > hot_of(0.3, NOW)


def test_the_hot_feed_follows_hot(client: Client, alice: User, template: Template) -> None:
    voted = {"template": template, "status": "ready", "likes": 10, "dislikes": 10}
    old_loved = Meme(**voted, rating=0.95, hot=hot_of(0.95, NOW - timedelta(days=3)))
    new_plain = Meme(**voted, rating=0.5, hot=hot_of(0.5, NOW))
    day_old_loved = Meme(**voted, rating=0.95, hot=hot_of(0.95, NOW - timedelta(days=1)))
    Meme.objects.bulk_create([old_loved, new_plain, day_old_loved])
    client.force_login(alice)
    ids = [item["id"] for item in client.get("/api/feed/?sort=hot").json()["results"]]
    assert ids == [new_plain.pk, day_old_loved.pk, old_loved.pk]


def test_new_and_top_follow_their_keys(client: Client, alice: User, template: Template) -> None:
    oldest, middle, newest = bulk_memes(template, 3)
    for meme, rating, age in ((oldest, 0.9, 3), (middle, 0.1, 2), (newest, 0.5, 1)):
        Meme.objects.filter(pk=meme.pk).update(rating=rating, created_at=NOW - timedelta(days=age), likes=20)
    client.force_login(alice)
    newest_first = [item["id"] for item in client.get("/api/feed/?sort=new").json()["results"]]
    best_first = [item["id"] for item in client.get("/api/feed/?sort=top").json()["results"]]
    assert newest_first == [newest.pk, middle.pk, oldest.pk]
    assert best_first == [oldest.pk, newest.pk, middle.pk]
