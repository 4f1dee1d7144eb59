"""The exploration place (every fifth in hot and top) is for memes nobody has
judged enough; a meme the reader voted on is judged, by them: it ranks by its
score (a dislike sinks it) instead of riding the exploration place, which
other readers still get it through."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template, set_reaction
from feed.ranking.sorts import EXPLORE_EVERY
from tests.feed_data import bulk_memes


@pytest.mark.parametrize("sort", ["hot", "top"])
def test_a_disliked_new_meme_leaves_the_exploration_place(
    client: Client, alice: User, bob: User, template: Template, sort: str
) -> None:
    bulk_memes(template, 120, likes=50, dislikes=2, rating=0.95, hot=30.0)  # more than a chunk
    *_, disliked = bulk_memes(template, 5, rating=0.5, hot=20.0)  # the newest meme with few votes
    set_reaction(disliked.pk, alice, -1)

    client.force_login(alice)
    alices = [item["id"] for item in client.get(f"/api/feed/?sort={sort}&page_size=20").json()["results"]]
    client.force_login(bob)
    bobs = [item["id"] for item in client.get(f"/api/feed/?sort={sort}&page_size=20").json()["results"]]

    assert disliked.pk not in alices
    assert bobs[EXPLORE_EVERY - 1] == disliked.pk
