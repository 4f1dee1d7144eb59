""" "Make a meme" requests, all readers together, queue at most
THROTTLE_REQUEST_MEMES memes an hour (half the site's budget by
default): a few accounts asking all they may cannot spend the memes the feed
and the stock need. Before, 12-50 accounts could spend the whole hourly budget
of 6,000. Parallel requests never overdraw the share."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from feed.models import Template
from generation.models import GenerationJob
from generation.services import MEMES_PER_REQUEST, reader_is_running_low
from memesite.rates import Rate
from tests.feed_data import readers
from tests.parallel import all_at_once


def reader_client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def ask_for_a_meme(account: User, template: str) -> Any:
    return reader_client(account).post("/api/make/", {"template": template})


@pytest.fixture
def budget(settings: Any) -> None:
    settings.THROTTLE_SITE_MEMES = "40/hour"
    settings.THROTTLE_REQUEST_MEMES = f"{5 * MEMES_PER_REQUEST}/hour"
    settings.GENERATION_BATCH_SIZE = 20


@pytest.mark.django_db
@pytest.mark.usefixtures("budget")
def test_requests_stop_at_their_share_and_the_feed_keeps_the_rest(template: Template) -> None:
    accounts = readers(8)
    answers = [reader_client(account).post("/api/make/", {"template": template.slug}) for account in accounts]
    assert [answer.status_code for answer in answers] == [202] * 5 + [429] * 3
    assert "busy" in answers[-1].json()["detail"]
    assert reader_is_running_low(accounts[0], template) is not None  # the feed's 20 of the 40


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("budget")
def test_parallel_requests_never_overdraw_the_share(template: Template) -> None:
    accounts = readers(30)
    answers = all_at_once([partial(ask_for_a_meme, account, template.slug) for account in accounts])
    assert sorted(answer.status_code for answer in answers) == [202] * 5 + [429] * 25
    assert GenerationJob.objects.filter(reason=GenerationJob.Reason.REQUEST).count() == 5


def test_the_share_is_half_the_sites_budget_by_default() -> None:
    share, budget = (
        Rate.parse(django_settings.THROTTLE_REQUEST_MEMES),
        Rate.parse(django_settings.THROTTLE_SITE_MEMES),
    )
    assert (share.uses * 2, share.period) == (budget.uses, budget.period)
