"""A reader who has been served everything gets new memes made for them, but
no more jobs an hour than THROTTLE_FEED_JOBS, however fast they
page: a script costs the workers no more than a person. Before this limit one
scripted reader made 18 jobs (1,152 memes) in 55 s."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Template
from generation.models import GenerationJob
from tests.feed_data import bulk_memes, page_as_fast_as_possible


@pytest.fixture(autouse=True)
def reading_faster_than_a_person(settings: Any) -> None:
    """These readers page far faster than a person; the memes served have their own limit
    (test_feed_memes_served_are_limited_per_reader)."""
    settings.THROTTLE_FEED_MEMES = "1000000/minute"


@pytest.fixture(autouse=True)
def limits(settings: Any) -> None:
    settings.THROTTLE_FEED_JOBS = "3/hour"
    settings.GENERATION_TEMPLATE_CEILING = 100_000  # out of the way: this is about the reader


def test_a_reader_paging_as_fast_as_possible_starts_at_most_the_hourly_jobs(
    client: Client, alice: User, template: Template
) -> None:
    bulk_memes(template, 5)
    client.force_login(alice)

    served = page_as_fast_as_possible(client, "/api/feed/?template=success&page_size=50", pages=40)

    assert GenerationJob.objects.filter(requested_by=alice).count() == 3
    # Everything that was made reached her, once: the limit costs her no meme that exists.
    assert sorted(served) == sorted(Meme.objects.values_list("pk", flat=True))
    assert Meme.objects.count() == 5 + 3 * 64


def test_the_mixed_feed_is_limited_alike(client: Client, alice: User, template: Template) -> None:
    client.force_login(alice)
    page_as_fast_as_possible(client, "/api/feed/?page_size=50", pages=40)
    assert GenerationJob.objects.filter(requested_by=alice).count() == 3


def test_another_reader_has_a_budget_of_their_own(
    client: Client, alice: User, bob: User, template: Template
) -> None:
    client.force_login(alice)
    page_as_fast_as_possible(client, "/api/feed/?page_size=50", pages=20)
    other = Client()
    other.force_login(bob)
    page_as_fast_as_possible(other, "/api/feed/?page_size=50", pages=40)
    assert GenerationJob.objects.filter(requested_by=bob).count() == 3
