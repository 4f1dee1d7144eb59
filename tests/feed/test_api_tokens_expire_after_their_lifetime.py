"""An API token is good for API_TOKEN_DAYS (30 by default) from when it was
issued; after that it is refused, and signing in again issues a new one."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from feed.models import Template
from tests.conftest import PASSWORD, make_meme


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def new_token(client: Client, username: str = "alice") -> str:
    response = client.post(
        "/api/auth/token/", {"username": username, "password": PASSWORD}, "application/json"
    )
    assert response.status_code == 200
    return str(response.json()["token"])


def age(token: str, days: float) -> None:
    Token.objects.filter(key=token).update(created=timezone.now() - timedelta(days=days))


def test_the_lifetime_is_thirty_days_by_default(settings: Any) -> None:
    assert timedelta(days=30) == settings.API_TOKEN_LIFETIME


def test_a_token_works_until_its_lifetime_ends(client: Client, alice: User, template: Template) -> None:
    meme = make_meme(template)
    token = new_token(client)
    header: dict[str, Any] = {"HTTP_AUTHORIZATION": f"Token {token}"}
    age(token, 29.9)
    assert Client().get("/api/feed/", **header).status_code == 200
    age(token, 30.1)
    expired = Client().get("/api/feed/", **header)
    assert expired.status_code in (401, 403) and "expired" in expired.json()["detail"]
    assert Client().put(f"/api/memes/{meme.pk}/favourite/", **header).status_code in (401, 403)


def test_signing_in_again_before_the_end_returns_the_same_token(client: Client, alice: User) -> None:
    assert new_token(client) == new_token(client)


def test_signing_in_again_after_the_end_issues_a_new_token(client: Client, alice: User) -> None:
    old = new_token(client)
    age(old, 31)
    fresh = new_token(client)
    assert fresh != old
    assert Client().get("/api/me/settings/", HTTP_AUTHORIZATION=f"Token {fresh}").status_code == 200
    assert Client().get("/api/me/settings/", HTTP_AUTHORIZATION=f"Token {old}").status_code in (401, 403)


def test_the_lifetime_follows_the_setting(client: Client, alice: User, settings: Any) -> None:
    settings.API_TOKEN_LIFETIME = timedelta(days=1)
    token = new_token(client)
    age(token, 1.5)
    assert Client().get("/api/me/settings/", HTTP_AUTHORIZATION=f"Token {token}").status_code in (401, 403)
