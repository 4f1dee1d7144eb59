"""The API's per-reader limits hold when a reader sends thirty requests at
once: exactly the limit is accepted, and every other answer is DRF's 429 with
Retry-After and a detail (as documented). DRF's own throttle, which reads the
count and writes it back in two steps, let 300 of 300 favourites through a
limit of 120 a minute."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from feed.models import Favourite, Meme, Template
from generation import tasks
from generation.models import GenerationJob
from tests.conftest import make_meme
from tests.parallel import all_at_once

pytestmark = pytest.mark.django_db(transaction=True)


def reader_client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def assert_refusals_are_documented(answers: list[Any]) -> None:
    for answer in answers:
        assert answer.status_code == 429
        wait = int(answer["Retry-After"])
        assert wait >= 1
        assert answer.json() == {"detail": f"Request was throttled. Expected available in {wait} seconds."}


def test_thirty_parallel_favourite_toggles_with_a_limit_of_ten(
    alice: User, template: Template, settings: Any
) -> None:
    settings.THROTTLE_REACTIONS = "10/day"  # no use comes back while the test runs
    memes = [make_meme(template) for _ in range(30)]

    def toggle(meme: Meme) -> Any:
        return reader_client(alice).put(f"/api/memes/{meme.pk}/favourite/")

    answers = all_at_once([partial(toggle, meme) for meme in memes])

    codes = [answer.status_code for answer in answers]
    assert codes.count(200) == 10 and codes.count(429) == 20
    assert Favourite.objects.filter(user=alice).count() == 10
    assert_refusals_are_documented([answer for answer in answers if answer.status_code == 429])


def test_thirty_parallel_meme_requests_with_a_limit_of_ten(
    alice: User, template: Template, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.THROTTLE_GENERATION = "10/day"
    monkeypatch.setattr(tasks, "send_job", lambda job_id: None)  # no worker here

    answers = all_at_once(
        [lambda: reader_client(alice).post("/api/make/", {"template": "success"}, format="json")] * 30
    )

    codes = [answer.status_code for answer in answers]
    assert codes.count(202) == 10 and codes.count(429) == 20
    assert GenerationJob.objects.filter(requested_by=alice).count() == 10
    assert_refusals_are_documented([answer for answer in answers if answer.status_code == 429])


def test_each_reader_has_a_limit_of_their_own(
    alice: User, bob: User, template: Template, settings: Any
) -> None:
    settings.THROTTLE_REACTIONS = "5/day"
    meme = make_meme(template)
    readers = [alice, bob] * 15

    def like(who: User) -> Any:
        return reader_client(who).put(f"/api/memes/{meme.pk}/reaction/", {"value": 1})

    answers = all_at_once([partial(like, who) for who in readers])

    accepted = [
        who.username for who, answer in zip(readers, answers, strict=True) if answer.status_code == 200
    ]
    assert sorted(accepted) == ["alice"] * 5 + ["bob"] * 5
    meme.refresh_from_db()
    assert meme.likes == 2
