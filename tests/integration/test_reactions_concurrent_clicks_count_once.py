"""Many readers clicking at once, each several times in two tabs, on a real
PostgreSQL: every counter equals the reactions stored, and each reader has at
most one reaction (the meme row lock orders them; nothing is lost or doubled)."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection, connections

from feed.models import Meme, Reaction, clear_reaction, set_favourite, set_reaction
from feed.ranking.scores import rating_of
from tests.conftest import make_meme, make_template
from tests.feed_data import readers

pytestmark = pytest.mark.integration


def clicks(reader: object, meme_id: int, seed: int) -> None:
    rng = random.Random(seed)
    try:
        for _ in range(15):
            choice = rng.random()
            if choice < 0.4:
                set_reaction(meme_id, reader, 1)
            elif choice < 0.7:
                set_reaction(meme_id, reader, -1)
            elif choice < 0.85:
                clear_reaction(meme_id, reader)
            else:
                set_favourite(meme_id, reader, rng.random() < 0.5)
    finally:
        connections.close_all()


def test_concurrent_clicks_keep_counts_exact(transactional_db: None) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the integration run sets DATABASE_URL to PostgreSQL")
    meme = make_meme(make_template("busy"))
    people = readers(12, prefix="clicker")
    threads = [
        threading.Thread(target=clicks, args=(person, meme.pk, seed))
        for seed, person in enumerate(people * 2)  # every reader in two tabs
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    meme = Meme.objects.get(pk=meme.pk)
    stored = Reaction.objects.filter(meme=meme)
    assert meme.likes == stored.filter(value=1).count()
    assert meme.dislikes == stored.filter(value=-1).count()
    assert meme.favourites == meme.favourited_by.count()
    assert stored.count() == stored.values("user").distinct().count() <= len(people)
    assert meme.rating == pytest.approx(rating_of(meme.likes, meme.dislikes, meme.prior))
