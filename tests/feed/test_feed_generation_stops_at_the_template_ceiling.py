"""Readers of one template share its supply: while a job for it is on its way
no reader starts another (its memes reach them all at their next page), and
once it holds GENERATION_TEMPLATE_CEILING memes made in the last day that few
readers have voted on, no reader starts any. Before this, five fresh accounts
made 320 memes in 4 s and one template grew from 30 memes to 1,502."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from feed.models import Meme, Template
from generation.models import GenerationJob
from generation.services import reader_is_running_low
from tests.feed_data import bulk_memes, page_as_fast_as_possible, readers

CEILING = 200


@pytest.fixture(autouse=True)
def ceiling(settings: Any) -> None:
    settings.GENERATION_TEMPLATE_CEILING = CEILING


def test_five_fresh_accounts_running_low_at_once_start_one_job(template: Template) -> None:
    bulk_memes(template, 5)
    jobs = [reader_is_running_low(reader, template) for reader in readers(5)]
    assert sum(job is not None for job in jobs) == 1
    assert GenerationJob.objects.count() == 1


def test_five_fresh_accounts_paging_one_template_stop_at_the_ceiling(
    template: Template, settings: Any
) -> None:
    settings.THROTTLE_FEED_MEMES = "100000/minute"  # scripts paging far faster than a person
    bulk_memes(template, 5)
    for reader in readers(5):
        client = Client()
        client.force_login(reader)
        page_as_fast_as_possible(client, "/api/feed/?template=success&page_size=50", pages=20)

    made = Meme.objects.filter(job__isnull=False).count()
    assert made <= CEILING + 64  # the job that crossed the ceiling is the last
    assert Meme.objects.count() == 5 + 4 * 64  # 5, 69, 133, 197: a job each; 261: none


def test_a_template_at_the_ceiling_gets_no_job(alice: User, template: Template) -> None:
    now = timezone.now()
    bulk_memes(template, CEILING, created_at=now, ready_at=now)
    assert reader_is_running_low(alice, template) is None


def test_memes_many_voted_on_or_a_day_old_are_no_longer_stock(alice: User, template: Template) -> None:
    now, yesterday = timezone.now(), timezone.now() - timedelta(days=1, minutes=1)
    bulk_memes(template, CEILING // 2, likes=3, dislikes=2, created_at=now, ready_at=now)
    bulk_memes(template, CEILING, created_at=yesterday, ready_at=yesterday)
    bulk_memes(template, CEILING // 2 - 1, created_at=now, ready_at=now)
    assert reader_is_running_low(alice, template) is not None


def test_a_make_a_meme_request_does_not_stand_in_for_the_feed(alice: User, template: Template) -> None:
    GenerationJob.objects.create(template=template, count=4, reason=GenerationJob.Reason.REQUEST)
    assert reader_is_running_low(alice, template) is not None
