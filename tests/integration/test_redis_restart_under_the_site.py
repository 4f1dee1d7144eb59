"""Redis (broker and rate-limit cache) down under the real site: the feed goes
on, a reader running low still gets the page (the job waits as a row for the
sweeper), a reaction answers a clean 503 that it may retry, and once Redis is
back reactions are taken again at once."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.authtoken.models import Token

from feed.models import GenerationJob, Meme
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
        refused = site.ask("PUT", f"/api/memes/{meme.pk}/reaction/", token, {"value": -1})
        assert refused.status == 503 and refused.retry_after, refused.body[:500]
        assert "detail" in json.loads(refused.body)
    finally:
        start_redis(redis_conf)

    assert site.ask("PUT", f"/api/memes/{meme.pk}/reaction/", token, {"value": -1}).status == 200
    meme.refresh_from_db()
    assert (meme.likes, meme.dislikes) == (0, 1)
