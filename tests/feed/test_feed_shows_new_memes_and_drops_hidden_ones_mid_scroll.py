"""A reader's session is frozen against moving scores, not against the world:
memes made while they scroll join in rank order at the next extension, and a
meme hidden by a moderator is never served after that."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Template
from feed.ranking.sessions import CHUNK
from tests.feed_data import bulk_memes


def test_new_memes_join_a_hot_feed_within_one_extension(
    client: Client, alice: User, template: Template
) -> None:
    bulk_memes(template, 300, hot=1.0)
    client.force_login(alice)
    page = client.get("/api/feed/?page_size=10").json()
    fresh = {meme.pk for meme in bulk_memes(template, 5, hot=9.0)}  # hotter than everything
    served: list[int] = []
    url = page["next"]
    for _ in range(CHUNK // 10 + 1):
        page = client.get(url).json()
        served += [item["id"] for item in page["results"]]
        url = page["next"]
    assert fresh <= set(served)


def test_a_hidden_meme_is_not_served_after_it_is_hidden(
    client: Client, alice: User, template: Template
) -> None:
    memes = bulk_memes(template, 40)
    client.force_login(alice)
    page = client.get("/api/feed/?page_size=10").json()
    served = {item["id"] for item in page["results"]}
    later = [meme for meme in memes if meme.pk not in served]
    later[0].hide()
    rest: list[int] = []
    url = page["next"]
    while (page := client.get(url).json())["results"]:
        rest += [item["id"] for item in page["results"]]
        url = page["next"]
    assert later[0].pk not in rest
    assert set(rest) == {meme.pk for meme in later[1:]}
    assert Meme.objects.visible().count() == 39
