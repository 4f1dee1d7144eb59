"""Random mixes templates and hot, new and top each show their own memes, on a
site as it looks after a reader ran low: a fresh batch of 64 memes of one
liked template, and older memes of ten templates with their votes."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from feed.models import Meme
from feed.ranking.sorts import SORTS
from tests.conftest import make_template
from tests.feed_data import scored_meme

FRESH_BATCH = 64
PAGE = 20
# (places in a row, most of them one template may hold) while other templates have stock
SHARES = {"hot": (5, 1), "top": (5, 1), "new": (4, 3)}


@pytest.fixture
def fresh_batch_and_older_rated_memes(db: None) -> None:
    now, rng = timezone.now(), random.Random(7)
    liked = make_template("skeptical", like_rate=0.6)
    memes = [scored_meme(liked, now - timedelta(seconds=n)) for n in range(FRESH_BATCH)]
    for number in range(10):
        template = make_template(f"older{number}")
        for _ in range(20):
            age = timedelta(hours=rng.uniform(20, 30 * 24))
            memes.append(scored_meme(template, now - age, rng.randint(0, 25), rng.randint(0, 12), 0.5))
    Meme.objects.bulk_create(memes)


def _served(client: Client, sort: str, pages: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    url = f"/api/feed/?sort={sort}&page_size={PAGE}"
    for _ in range(pages):
        page = client.get(url).json()
        items += page["results"]
        url = page["next"]
    return items


def _largest_share(items: list[dict[str, Any]], window: int) -> int:
    """The most places one template holds in any ``window`` places in a row."""
    slugs = [item["template"]["slug"] for item in items]
    return max(
        max(Counter(slugs[start : start + window]).values()) for start in range(len(slugs) - window + 1)
    )


@pytest.mark.usefixtures("fresh_batch_and_older_rated_memes")
def test_hot_new_and_top_begin_with_different_memes(
    client: Client, alice: User, bob: User, charlie: User
) -> None:
    # One reader per sort: a reader's second feed would leave out what their first served.
    firsts: dict[str, set[int]] = {}
    for sort, reader in zip(SORTS, (alice, bob, charlie), strict=True):
        client.force_login(reader)
        firsts[sort] = {item["id"] for item in _served(client, sort, 1)}
    for sort in SORTS:
        for other in SORTS:
            if sort < other:
                assert len(firsts[sort] & firsts[other]) <= PAGE // 2, (sort, other)


@pytest.mark.parametrize("sort", SORTS)
@pytest.mark.usefixtures("fresh_batch_and_older_rated_memes")
def test_random_shows_a_template_again_only_after_four_others_in_hot_and_top_and_three_of_four_in_new(
    client: Client, alice: User, sort: str
) -> None:
    client.force_login(alice)
    items = _served(client, sort, 5)
    window, share = SHARES[sort]
    assert _largest_share(items, window) <= share
