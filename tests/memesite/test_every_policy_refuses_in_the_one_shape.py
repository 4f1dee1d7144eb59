"""Each policy of the one limiter, once spent, refuses the action that takes it
in the one shape: under /api/ a 429 whose body is ``{"detail": "a sentence"}``
and whose Retry-After says when to come back; a page, a 429 with its sentence
and Retry-After. The feed's jobs for a reader running low refuse no request:
the page is served, and no job starts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.views import TOO_MANY_FROM_ADDRESS, TOO_MANY_ON_SITE
from generation.models import GenerationJob
from generation.services import BUSY
from memesite import limits
from memesite.limits import POLICIES
from memesite.sign_in_limits import SIGN_IN_REFUSED
from tests.conftest import PASSWORD, make_meme, make_template

THROTTLED = "Request was throttled. Expected available in"
# Each policy: the request that takes it, and the sentence its refusal starts with.
REFUSED_BY: dict[str, tuple[str, str, dict[str, Any], str]] = {
    "reactions": ("PUT", "/api/memes/{meme}/favourite/", {}, THROTTLED),
    "generation": ("POST", "/api/make/", {"template": "success"}, THROTTLED),
    "generation_hourly": ("POST", "/api/make/", {"template": "success"}, "You can make 1 meme a day;"),
    "generation_site": ("POST", "/api/make/", {"template": "success"}, BUSY),
    "request_memes": ("POST", "/api/make/", {"template": "success"}, BUSY),
    "site_memes": ("POST", "/api/make/", {"template": "success"}, BUSY),
    "feed_sessions": ("GET", "/api/feed/", {}, THROTTLED),
    "feed_memes": ("GET", "/api/feed/", {}, THROTTLED),
    "sign_in": ("POST", "/api/auth/token/", {"username": "alice", "password": PASSWORD}, THROTTLED),
}
PAGES: dict[str, tuple[str, dict[str, str], str]] = {
    "sign_in": ("/accounts/login/", {"username": "alice", "password": PASSWORD}, SIGN_IN_REFUSED),
    "sign_up": ("/accounts/signup/", {"username": "dave", "password1": PASSWORD, "password2": PASSWORD},
                TOO_MANY_FROM_ADDRESS),
    "sign_up_site": ("/accounts/signup/", {"username": "dave", "password1": PASSWORD, "password2": PASSWORD},
                     TOO_MANY_ON_SITE),
}  # fmt: skip
REFUSES_NO_REQUEST = {"feed_jobs"}


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def spent(policy: str, reader: User, settings: Any) -> None:
    """One use a day of ``policy``, and that one taken (for a reader's policy, alice's)."""
    setattr(settings, POLICIES[policy].setting, "1/day")
    who = {"reader": limits.reader(reader), "address": "address:127.0.0.1", "site": limits.SITE}
    assert limits.take(policy, who[POLICIES[policy].per])


def test_every_policy_has_a_case() -> None:
    assert set(POLICIES) == REFUSED_BY.keys() | PAGES.keys() | REFUSES_NO_REQUEST


@pytest.mark.parametrize("policy", list(REFUSED_BY))
def test_each_policy_refuses_the_api_in_the_one_shape(alice: User, settings: Any, policy: str) -> None:
    meme = make_meme(make_template("success"))
    spent(policy, alice, settings)
    method, url, body, sentence = REFUSED_BY[policy]
    client = Client()
    if url != "/api/auth/token/":
        client.force_login(alice)
    response = client.generic(method, url.format(meme=meme.pk), json.dumps(body), "application/json")

    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    detail = response.json()
    assert list(detail) == ["detail"] and detail["detail"].startswith(sentence)
    assert int(response["Retry-After"]) >= 1


@pytest.mark.parametrize("policy", list(PAGES))
def test_each_policy_refuses_a_page_with_its_sentence(alice: User, settings: Any, policy: str) -> None:
    spent(policy, alice, settings)
    url, form, sentence = PAGES[policy]
    response = Client().post(url, form)

    assert response.status_code == 429
    assert sentence in response.content.decode()
    assert int(response["Retry-After"]) >= 1


def test_the_feeds_jobs_refuse_no_request(alice: User, settings: Any) -> None:
    make_template("success")
    spent("feed_jobs", alice, settings)
    client = Client()
    client.force_login(alice)
    assert client.get("/api/feed/").status_code == 200
    assert not GenerationJob.objects.exists()
