"""The site queues at most THROTTLE_SITE_MEMES memes an hour,
whatever asks for them: a reader's scrolling, "make a meme" or the periodic
stock top-up. Past it, scrolling starts nothing, the top-up stops and a meme
request is told the machine is busy; parallel requests never overdraw it."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Sum
from rest_framework.test import APIClient

from feed.models import Template
from generation import tasks
from generation.models import GenerationJob
from generation.services import reader_is_running_low
from generation.stock import top_up_stock
from tests.conftest import make_template
from tests.feed_data import readers
from tests.parallel import all_at_once


def memes_asked_for() -> int:
    return int(GenerationJob.objects.aggregate(total=Sum("count"))["total"] or 0)


def reader_client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.django_db
def test_scrolling_making_and_topping_up_share_one_budget(
    alice: User, bob: User, charlie: User, settings: Any
) -> None:
    settings.THROTTLE_SITE_MEMES = "100/hour"
    settings.GENERATION_STOCK_PER_TEMPLATE = 30
    scrolled, made, stocked = make_template("scrolled"), make_template("made"), make_template("stocked")
    Template.objects.filter(pk__in=[made.pk, stocked.pk]).update(is_active=False)

    assert reader_is_running_low(alice, scrolled) is not None  # 64 of 100
    Template.objects.filter(pk=stocked.pk).update(is_active=True)
    assert [job.count for job in top_up_stock()] == [30]  # 94 of 100
    Template.objects.filter(pk=made.pk).update(is_active=True)
    assert reader_client(bob).post("/api/make/", {"template": "made"}).status_code == 202  # 98 of 100
    refused = reader_client(bob).post("/api/make/", {"template": "made"})
    assert refused.status_code == 429 and "busy" in refused.json()["detail"]
    GenerationJob.objects.update(status="done")  # nothing in flight: only the budget stands in the way
    assert reader_is_running_low(charlie, made) is None
    assert top_up_stock() == []
    assert memes_asked_for() == 98


@pytest.mark.django_db(transaction=True)
def test_thirty_parallel_meme_requests_never_overdraw_it(
    template: Template, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.THROTTLE_SITE_MEMES = "40/hour"  # ten requests of four memes
    monkeypatch.setattr(tasks, "send_job", lambda job_id: None)  # no worker here
    clients = [reader_client(reader) for reader in readers(30)]

    answers = all_at_once([partial(client.post, "/api/make/", {"template": "success"}) for client in clients])

    assert [answer.status_code for answer in answers].count(202) == 10
    assert memes_asked_for() == 40
