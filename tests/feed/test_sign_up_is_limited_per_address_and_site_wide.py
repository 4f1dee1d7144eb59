"""Every per-reader limit is per account, so accounts are limited too: sign-ups
per address and per hour site-wide (THROTTLE_SIGN_UP,
THROTTLE_SIGN_UP_SITE). A refused sign-up gets the page back with a
plain message and a 429; a form with mistakes uses nothing."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client

from feed.views import TOO_MANY_FROM_ADDRESS, TOO_MANY_ON_SITE
from tests.conftest import PASSWORD
from tests.parallel import all_at_once


@pytest.fixture(autouse=True)
def fast_hasher(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_up(username: str, address: str = "203.0.113.7", password2: str = PASSWORD) -> HttpResponse:
    client = Client(REMOTE_ADDR=address)
    form = {"username": username, "password1": PASSWORD, "password2": password2}
    return client.post("/accounts/signup/", form)  # type: ignore[return-value]


def refused_with_the_message(answer: HttpResponse, message: str = TOO_MANY_FROM_ADDRESS) -> bool:
    return answer.status_code == 429 and message in answer.content.decode()


@pytest.mark.django_db(transaction=True)
def test_thirty_parallel_sign_ups_from_one_address_make_the_limit(settings: Any) -> None:
    settings.THROTTLE_SIGN_UP = "5/hour"
    answers = all_at_once([partial(sign_up, f"script{n}") for n in range(30)])

    assert [answer.status_code for answer in answers].count(302) == 5
    assert sum(refused_with_the_message(answer) for answer in answers) == 25
    assert User.objects.count() == 5


@pytest.mark.django_db
def test_another_address_still_signs_up(settings: Any) -> None:
    settings.THROTTLE_SIGN_UP = "1/hour"
    assert sign_up("alice", "203.0.113.7").status_code == 302
    assert refused_with_the_message(sign_up("mallory", "203.0.113.7"))
    assert sign_up("bob", "198.51.100.2").status_code == 302


@pytest.mark.django_db
def test_the_site_wide_limit_holds_across_addresses(settings: Any) -> None:
    settings.THROTTLE_SIGN_UP_SITE = "3/hour"
    answers = [sign_up(f"reader{n}", f"198.51.100.{n}") for n in range(1, 5)]
    assert [answer.status_code for answer in answers] == [302, 302, 302, 429]
    assert refused_with_the_message(answers[-1], TOO_MANY_ON_SITE)


@pytest.mark.django_db
def test_the_refusal_keeps_the_form_and_signs_no_one_in(settings: Any) -> None:
    settings.THROTTLE_SIGN_UP = "1/hour"
    sign_up("alice")
    client = Client(REMOTE_ADDR="203.0.113.7")
    answer = client.post(
        "/accounts/signup/", {"username": "bob", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert answer.status_code == 429
    assert 'name="username"' in answer.content.decode() and TOO_MANY_FROM_ADDRESS in answer.content.decode()
    assert client.get("/favourites/").status_code == 302  # still signed out: sent to sign in


@pytest.mark.django_db
def test_a_form_with_mistakes_uses_nothing(settings: Any) -> None:
    settings.THROTTLE_SIGN_UP = "1/hour"
    for _ in range(5):
        assert sign_up("alice", password2="not the same").status_code == 200
    assert sign_up("alice").status_code == 302
