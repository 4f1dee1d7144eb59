"""A feed read without a cursor starts a new frozen feed, up to 100 rows that
live a day: a reader may start THROTTLE_FEED_SESSIONS of them, however many at
once; following ``next`` is held only to the memes served
(test_feed_memes_served_are_limited_per_reader). Before this limit, 200 fresh
reads in 0.8 s wrote 16,000 rows."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from feed.models import FeedPosition, Template
from feed.ranking.sessions import CHUNK
from tests.feed_data import bulk_memes
from tests.parallel import all_at_once


def reader_client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def plenty(template: Template) -> None:
    bulk_memes(template, 150)  # more than a session's first chunk: nobody runs low


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("plenty")
def test_thirty_parallel_fresh_reads_start_the_limit_of_feeds(alice: User, settings: Any) -> None:
    settings.THROTTLE_FEED_SESSIONS = "5/day"

    answers = all_at_once([lambda: reader_client(alice).get("/api/feed/")] * 30)

    codes = [answer.status_code for answer in answers]
    assert codes.count(200) == 5 and codes.count(429) == 25
    assert all(int(answer["Retry-After"]) >= 1 for answer in answers if answer.status_code == 429)
    assert FeedPosition.objects.values("session").distinct().count() == 5
    assert FeedPosition.objects.count() <= 5 * CHUNK


@pytest.mark.django_db
@pytest.mark.usefixtures("plenty")
def test_following_next_is_not_held_to_the_fresh_read_limit(alice: User, settings: Any) -> None:
    settings.THROTTLE_FEED_SESSIONS = "1/day"
    client = reader_client(alice)
    page = client.get("/api/feed/?page_size=10")
    assert client.get("/api/feed/").status_code == 429
    for _ in range(12):
        assert page.status_code == 200
        page = client.get(page.json()["next"])


@pytest.mark.django_db
@pytest.mark.usefixtures("plenty")
def test_each_reader_starts_feeds_of_their_own(alice: User, bob: User, settings: Any) -> None:
    settings.THROTTLE_FEED_SESSIONS = "1/day"
    assert reader_client(alice).get("/api/feed/").status_code == 200
    assert reader_client(alice).get("/api/feed/?sort=new").status_code == 429
    assert reader_client(bob).get("/api/feed/?sort=new").status_code == 200


@pytest.mark.django_db
@pytest.mark.usefixtures("plenty")
def test_a_refused_read_writes_nothing(alice: User, settings: Any) -> None:
    settings.THROTTLE_FEED_SESSIONS = "1/day"
    client = reader_client(alice)
    client.get("/api/feed/")
    written = FeedPosition.objects.count()
    for _ in range(20):
        client.get("/api/feed/?sort=top")
    assert FeedPosition.objects.count() == written
