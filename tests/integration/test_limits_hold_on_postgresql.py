"""The one limiter on a real PostgreSQL: thirty takes at once, each on its own
connection, get exactly the limit; and through the real site (gunicorn, two
worker processes, production settings) thirty parallel favourites or fresh
feed reads by one reader get exactly theirs, the rest DRF's 429."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from rest_framework.authtoken.models import Token

from feed.models import Favourite, FeedPosition, Meme
from memesite.models import RateLimitBucket
from tests.conftest import make_template
from tests.integration.conftest import Answer, Site
from tests.parallel import all_at_once

pytestmark = pytest.mark.integration

NOW = 1_800_000_000.0  # seconds since the Unix epoch


@pytest.fixture(autouse=True)
def on_postgresql(transactional_db: None) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs the PostgreSQL server that `python -m tests.servers` starts")


@pytest.mark.parametrize("round_number", range(3))
def test_thirty_parallel_takes_get_exactly_the_limit(round_number: int) -> None:
    granted = all_at_once([lambda: RateLimitBucket.take("race", 10, 3600, now=NOW)] * 30)
    assert granted.count(True) == 10


def test_thirty_parallel_takes_of_many_uses_never_overdraw() -> None:
    granted = all_at_once([lambda: RateLimitBucket.take("memes", 200, 3600, 64, now=NOW)] * 30)
    assert granted.count(True) == 3


def ready_memes(count: int) -> list[Meme]:
    template, now = make_template(), timezone.now()
    scores = Meme.initial_scores(now)
    return Meme.objects.bulk_create(
        [
            Meme(template=template, texts=[f"{n}", "b"], status="ready", ready_at=now, **scores)
            for n in range(count)
        ]
    )


def refused_as_documented(answer: Answer) -> bool:
    wait = answer.retry_after
    return (
        answer.status == 429
        and wait is not None
        and json.loads(answer.body)
        == {"detail": f"Request was throttled. Expected available in {wait} seconds."}
    )


def test_the_real_site_holds_each_limit_under_thirty_parallel_requests(
    start_site: Callable[..., Site],
) -> None:
    memes = ready_memes(150)
    alice = User.objects.create_user("alice")
    token = Token.objects.create(user=alice).key
    site = start_site({"THROTTLE_REACTIONS": "10/day", "THROTTLE_FEED_SESSIONS": "5/day"})

    favourites = all_at_once(
        [partial(site.ask, "PUT", f"/api/memes/{meme.pk}/favourite/", token) for meme in memes[:30]]
    )
    fresh_reads = all_at_once([lambda: site.ask("GET", "/api/feed/", token)] * 30)

    assert [answer.status for answer in favourites].count(200) == 10
    assert sum(refused_as_documented(answer) for answer in favourites) == 20
    assert Favourite.objects.count() == 10
    assert [answer.status for answer in fresh_reads].count(200) == 5
    assert sum(refused_as_documented(answer) for answer in fresh_reads) == 25
    assert FeedPosition.objects.values("session").distinct().count() == 5
