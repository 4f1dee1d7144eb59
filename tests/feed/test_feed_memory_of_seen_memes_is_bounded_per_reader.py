"""The feed remembers a reader's last 10,000 seen memes: the hourly upkeep
forgets the oldest beyond that, reader by reader, and nobody else's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from feed.models import SeenMeme, Template
from feed.ranking.seen import SEEN_MEMORY
from feed.tasks import tidy_feed
from tests.feed_data import bulk_memes


def remember(reader: User, meme_ids: list[int]) -> None:
    """One meme a second, in order: the first is the oldest."""
    start = timezone.now() - timedelta(days=30)
    SeenMeme.objects.bulk_create(
        SeenMeme(user=reader, meme_id=meme, seen_at=start + timedelta(seconds=number))
        for number, meme in enumerate(meme_ids)
    )


def test_the_upkeep_forgets_the_oldest_beyond_the_last_ten_thousand(
    alice: User, bob: User, template: Template
) -> None:
    assert SEEN_MEMORY == 10_000
    ids = [meme.pk for meme in bulk_memes(template, SEEN_MEMORY + 5)]
    remember(alice, ids)
    remember(bob, ids[:50])

    tidy_feed.delay()

    kept = set(SeenMeme.objects.filter(user=alice).values_list("meme_id", flat=True))
    assert kept == set(ids[5:])
    assert SeenMeme.objects.filter(user=bob).count() == 50


def test_memes_seen_in_the_same_second_are_forgotten_one_by_one(alice: User, template: Template) -> None:
    ids = [meme.pk for meme in bulk_memes(template, 12)]
    SeenMeme.objects.remember(alice.pk, ids)  # one page: one moment
    assert SeenMeme.objects.forget_oldest(keep=10) == 2
    assert SeenMeme.objects.filter(user=alice).count() == 10


def test_the_upkeep_command_says_how_many_it_forgot(
    alice: User, template: Template, capsys: pytest.CaptureFixture[str]
) -> None:
    remember(alice, [meme.pk for meme in bulk_memes(template, SEEN_MEMORY + 2)])
    call_command("tidy_feed")
    assert ", 2 seen memes and" in capsys.readouterr().out
