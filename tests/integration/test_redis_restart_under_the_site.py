"""Redis (broker and cache) down under the real site: the feed goes on, a
reader running low still gets the page (the job waits as a row for the
sweeper), and reactions go on too: their rate limit lives in the database."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.authtoken.models import Token

from feed.models import Meme
from generation.models import GenerationJob
from tests.conftest import make_template
from tests.integration.conftest import Site
from tests.integration.restart import server_file
from tests.servers import start_redis, stop_redis

pytestmark = pytest.mark.integration


def test_the_site_keeps_serving_the_feed_while_redis_is_down(start_site: Callable[..., Site]) -> None:
    template, now = make_template(), timezone.now()
    meme = Meme.objects.create(
        template=template, texts=["a", "b"], status="ready", ready_at=now, **Meme.initial_scores(now)
    )
    alice = User.objects.create_user("alice")
    token = Token.objects.create(user=alice).key
    site = start_site()
    assert site.ask("PUT", f"/api/memes/{meme.pk}/reaction/", token, {"value": 1}).status == 200

    redis_conf = server_file("MEMESITE_TEST_REDIS_CONF")
    stop_redis(redis_conf)
    try:
        page = site.ask("GET", "/api/feed/", token)  # one meme in all: the feed asks for more
        assert page.status == 200, page.body[:500]
        assert GenerationJob.objects.filter(requested_by=alice, status="queued").exists()
        switched = site.ask("PUT", f"/api/memes/{meme.pk}/reaction/", token, {"value": -1})
        assert switched.status == 200, switched.body[:500]
        assert json.loads(switched.body)["my_reaction"] == -1
    finally:
        start_redis(redis_conf)

    meme.refresh_from_db()
    assert (meme.likes, meme.dislikes) == (0, 1)
