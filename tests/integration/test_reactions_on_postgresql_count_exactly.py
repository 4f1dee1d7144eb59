"""Reactions at once on a real PostgreSQL, through the functions the API calls:
20 readers liking one meme make 20 likes; one reader liking twice at once makes
one; 10,000 changes from 100 readers across 10 memes leave every count equal
to a recount of the rows, the rows equal to each reader's last change, and
every score equal to the one computed from the counts."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone

from feed.models import Meme, Reaction, Template, clear_reaction, set_reaction
from feed.ranking.scores import hot_of, rating_of
from tests.conftest import make_template
from tests.feed_data import readers

pytestmark = pytest.mark.integration

CLIENTS, CHANGES_PER_CLIENT, MEMES = 100, 100, 10


@pytest.fixture(autouse=True)
def on_postgresql(transactional_db: None) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks under real concurrency need PostgreSQL (the integration run's DATABASE_URL)")


def scored_meme(template: Template) -> Meme:
    """A ready meme whose scores are what the pipeline gives a new meme."""
    now = timezone.now()
    scores = Meme.initial_scores(now, template.like_rate)
    return Meme.objects.create(
        template=template, texts=["top", "bottom"], status="ready", ready_at=now, **scores
    )


def all_at_once(actions: list[Callable[[], Any]]) -> None:
    """Run each action in its own thread, released together; each thread
    closes its own database connection when done."""
    start = threading.Barrier(len(actions))

    def run(action: Callable[[], Any]) -> None:
        try:
            start.wait()
            action()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=len(actions)) as pool:
        for done in [pool.submit(run, action) for action in actions]:
            done.result()


def assert_counts_match_the_rows(meme: Meme) -> None:
    meme.refresh_from_db()
    rows = Reaction.objects.filter(meme=meme)
    assert (meme.likes, meme.dislikes) == (rows.filter(value=1).count(), rows.filter(value=-1).count())
    assert meme.rating == pytest.approx(rating_of(meme.likes, meme.dislikes, meme.prior), rel=1e-9)
    assert meme.ready_at is not None
    assert meme.hot == pytest.approx(hot_of(meme.rating, meme.ready_at), rel=1e-9)


def test_twenty_readers_liking_one_meme_make_twenty_likes() -> None:
    meme = scored_meme(make_template())
    people = readers(20)
    all_at_once([partial(set_reaction, meme.pk, person, 1) for person in people])
    assert Reaction.objects.filter(meme=meme, value=1).count() == 20
    assert_counts_match_the_rows(meme)
    assert meme.likes == 20


def test_one_reader_liking_twice_at_once_makes_one_like() -> None:
    memes = [scored_meme(make_template(f"twice{n}")) for n in range(5)]
    (alice,) = readers(1, prefix="alice")
    for meme in memes:  # a few rounds: a race shows only some of the time
        all_at_once([partial(set_reaction, meme.pk, alice, 1)] * 2)
        assert Reaction.objects.filter(meme=meme).count() == 1
        assert_counts_match_the_rows(meme)
        assert meme.likes == 1


def changes(person: Any, meme_ids: list[int], seed: int) -> dict[int, int | None]:
    """CHANGES_PER_CLIENT random likes, dislikes and removals by one reader;
    returns the reaction the reader last left on each meme it touched."""
    rng = random.Random(seed)
    last: dict[int, int | None] = {}
    for _ in range(CHANGES_PER_CLIENT):
        meme_id, value = rng.choice(meme_ids), rng.choice([1, -1, None])
        if value is None:
            clear_reaction(meme_id, person)
        else:
            set_reaction(meme_id, person, value)
        last[meme_id] = value
    return last


def test_ten_thousand_changes_from_a_hundred_readers_keep_every_count_exact() -> None:
    template = make_template()
    meme_ids = [scored_meme(template).pk for _ in range(MEMES)]
    people = readers(CLIENTS)
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=CLIENTS) as pool:

        def client(seed: int) -> dict[int, int | None]:
            try:
                return changes(people[seed], meme_ids, seed)
            finally:
                connections.close_all()

        lasts = list(pool.map(client, range(CLIENTS)))
    seconds = time.monotonic() - started
    print(f"\n{CLIENTS * CHANGES_PER_CLIENT} reaction changes from {CLIENTS} clients on {MEMES} memes "
          f"in {seconds:.1f} s ({CLIENTS * CHANGES_PER_CLIENT / seconds:.0f} changes/s)")  # fmt: skip

    expected = {
        (person.pk, meme_id): value
        for person, last in zip(people, lasts, strict=True)
        for meme_id, value in last.items()
        if value is not None
    }
    rows = Reaction.objects.values_list("user_id", "meme_id", "value")
    stored = {(user_id, meme_id): value for user_id, meme_id, value in rows}
    assert stored == expected
    for meme in Meme.objects.filter(pk__in=meme_ids):
        assert_counts_match_the_rows(meme)
