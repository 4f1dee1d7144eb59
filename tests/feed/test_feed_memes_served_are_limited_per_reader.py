"""Every meme the feed serves is a row of the reader's memory of seen memes and
at most one of a frozen feed, so the memes served are limited per reader
(THROTTLE_FEED_MEMES, a page's size at a time), following ``next`` included:
a script following ``next`` in a loop cannot write rows without bound. Before,
one session grew to every ready meme and one reader wrote ~43,800 rows an hour."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from feed.models import FeedPosition, SeenMeme, Template
from feed.ranking.pages import LOOKAHEAD
from feed.ranking.sessions import CHUNK
from tests.feed_data import bulk_memes
from tests.parallel import all_at_once

PAGE = 10


def reader_client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def plenty(template: Template, settings: Any) -> None:
    bulk_memes(template, 300)  # more than the limit: the limit, not the stock, ends the reading
    settings.THROTTLE_FEED_MEMES = "50/hour"


@pytest.mark.django_db
@pytest.mark.usefixtures("plenty")
def test_following_next_stops_at_the_readers_memes_an_hour(alice: User) -> None:
    client = reader_client(alice)
    answer, served = client.get(f"/api/feed/?page_size={PAGE}"), 0
    while answer.status_code == 200:
        served += len(answer.json()["results"])
        answer = client.get(answer.json()["next"])
    assert answer.status_code == 429 and int(answer["Retry-After"]) >= 1
    assert served == 50
    assert SeenMeme.objects.filter(user=alice).count() == 50
    assert FeedPosition.objects.count() <= served + CHUNK + PAGE + LOOKAHEAD


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("plenty")
def test_parallel_reads_are_served_no_more_than_the_limit(alice: User, settings: Any) -> None:
    settings.THROTTLE_FEED_SESSIONS = "1000/hour"
    answers = all_at_once([lambda: reader_client(alice).get(f"/api/feed/?page_size={PAGE}")] * 30)
    codes = [answer.status_code for answer in answers]
    assert codes.count(200) == 5 and codes.count(429) == 25
    assert SeenMeme.objects.filter(user=alice).count() <= 50


@pytest.mark.django_db
@pytest.mark.usefixtures("plenty")
def test_each_reader_has_a_limit_of_their_own(alice: User, bob: User) -> None:
    assert reader_client(alice).get("/api/feed/?page_size=50").status_code == 200
    assert reader_client(alice).get("/api/feed/?page_size=1").status_code == 429
    assert reader_client(bob).get("/api/feed/?page_size=50").status_code == 200


@pytest.mark.django_db
@pytest.mark.usefixtures("plenty")
def test_a_bad_page_size_is_a_400_that_uses_none_of_the_limit(alice: User) -> None:
    client = reader_client(alice)
    for bad in ("0", "-5", "1000000", "ten"):
        answer = client.get(f"/api/feed/?page_size={bad}")
        assert answer.status_code == 400 and "page_size" in answer.json()
    assert client.get("/api/feed/?page_size=50").status_code == 200
