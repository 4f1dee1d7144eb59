"""Walk a 5,000-meme feed, 3,000 of them tied on score, while other readers'
reactions move scores up and down under the reader: every meme is served
exactly once. A plain keyset on the score (or DRF's CursorPagination) would
repeat memes that fall behind the cursor and skip those that rise past it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, set_reaction
from tests.conftest import make_template
from tests.feed_data import bulk_memes, readers, scored_memes, walk


@pytest.fixture(autouse=True)
def reading_faster_than_a_person(settings: Any) -> None:
    """These readers page far faster than a person; the memes served have their own limit
    (test_feed_memes_served_are_limited_per_reader)."""
    settings.THROTTLE_FEED_MEMES = "1000000/minute"


TIED, OTHERS = 3000, 2000


def walk_while_reactions_change(client: Client, alice: User, sort: str, page_size: int) -> None:
    rng = random.Random(6)
    template = make_template("walk")
    bulk_memes(template, TIED)  # all at the default score: one big tie
    scored_memes(template, OTHERS, rng)
    everyone = set(Meme.objects.visible().values_list("pk", flat=True))
    voters = readers(40)
    ids = sorted(everyone)

    def react_meanwhile(served: list[int]) -> None:
        # Half the votes land on memes already served (they fall or rise behind
        # the reader), half anywhere (ahead of the reader, or in the tie).
        for _ in range(6):
            meme_id = rng.choice(served) if rng.random() < 0.5 else rng.choice(ids)
            set_reaction(meme_id, rng.choice(voters), rng.choice((1, -1)))

    client.force_login(alice)
    served = walk(client, f"/api/feed/?sort={sort}&page_size={page_size}", react_meanwhile)

    assert len(served) - len(set(served)) == 0, "duplicates"
    assert everyone - set(served) == set(), "misses"
    assert len(served) == len(everyone) == TIED + OTHERS


@pytest.mark.parametrize(("sort", "page_size"), [("hot", 50), ("top", 17)])
def test_every_meme_is_served_exactly_once_while_scores_move(
    client: Client, alice: User, sort: str, page_size: int
) -> None:
    walk_while_reactions_change(client, alice, sort, page_size)
