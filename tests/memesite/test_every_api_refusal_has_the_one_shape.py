"""Every refusal under /api/, whoever gives it, is JSON of one shape:
``{"detail": "a sentence"}``, with Retry-After where the wait is known (a limit,
a service out of reach) and without it where it is not. Outside DRF's views the
answer is made in one place (memesite/refusals.py), and nothing else in the
site decides what "under /api/" means."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, OperationalError
from django.test import Client

from tests.conftest import PASSWORD, make_meme, make_template

ROOT = Path(__file__).resolve().parents[2]


def fail_with(error: Exception) -> Callable[..., None]:
    def fail(*args: Any) -> None:
        raise error

    return fail


def too_large(client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch, alice: User) -> Any:
    return client.post("/api/make/", "{}", "application/json", CONTENT_LENGTH=str(10**9))


def unknown_path(client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch, alice: User) -> Any:
    return client.get("/api/no-such-thing/")


def unknown_host(client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch, alice: User) -> Any:
    return client.get("/api/templates/", HTTP_HOST="elsewhere.example")


def a_bug(client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch, alice: User) -> Any:
    monkeypatch.setattr("feed.ranking.items.meme_row", fail_with(IntegrityError("duplicate key value")))
    return client.get("/api/memes/1/")


def a_proxy_naming_no_client(
    client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch, alice: User
) -> Any:
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    return client.get("/api/templates/")


def the_database_out_of_reach(
    client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch, alice: User
) -> Any:
    lost = OperationalError("server closed the connection")
    monkeypatch.setattr("feed.ranking.items.meme_row", fail_with(lost))
    return client.get("/api/memes/1/")


def a_locked_out_sign_in(client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch, alice: User) -> Any:
    settings.AXES_FAILURE_LIMIT = 1
    wrong = {"username": "alice", "password": "wrong"}
    client.post("/api/auth/token/", wrong, "application/json")
    return client.post("/api/auth/token/", {"username": "alice", "password": PASSWORD}, "application/json")


def a_spent_limit(client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch, alice: User) -> Any:
    settings.THROTTLE_REACTIONS = "1/day"
    meme = make_meme(make_template())
    client.force_login(alice)
    client.put(f"/api/memes/{meme.pk}/favourite/")
    return client.delete(f"/api/memes/{meme.pk}/favourite/")


def a_spent_make_a_meme_hour(
    client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch, alice: User
) -> Any:
    settings.THROTTLE_GENERATION_HOURLY = "1/hour"
    make_template("success")
    client.force_login(alice)
    client.post("/api/make/", {"template": "success"}, "application/json")
    return client.post("/api/make/", {"template": "success"}, "application/json")


# Each refusal: how it is caused, its status, and whether the wait is known.
REFUSALS: list[tuple[Callable[..., Any], int, bool]] = [
    (too_large, 413, False),
    (unknown_path, 404, False),
    (unknown_host, 400, False),
    (a_bug, 500, False),
    (a_proxy_naming_no_client, 500, False),
    (the_database_out_of_reach, 503, True),
    (a_locked_out_sign_in, 429, False),
    (a_spent_limit, 429, True),
    (a_spent_make_a_meme_hour, 429, True),
]


@pytest.mark.parametrize(
    ("cause", "status", "wait_known"), REFUSALS, ids=[cause.__name__ for cause, *_ in REFUSALS]
)
def test_each_refusal_is_a_detail_and_a_wait_where_known(
    alice: User,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    cause: Callable[..., Any],
    status: int,
    wait_known: bool,
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    response = cause(Client(raise_request_exception=False), settings, monkeypatch, alice)

    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert list(body) == ["detail"] and isinstance(body["detail"], str) and body["detail"]
    assert ("Retry-After" in response) == wait_known
    if wait_known:
        assert int(response["Retry-After"]) >= 1


def test_only_the_refusals_module_decides_what_is_under_the_api() -> None:
    deciders = [
        str(path.relative_to(ROOT))
        for package in ("feed", "generation", "memesite")
        for path in sorted((ROOT / package).rglob("*.py"))
        if re.search(r"""startswith\(\s*["']/api/""", path.read_text(encoding="utf-8"))
    ]
    assert deciders == ["memesite/refusals.py"]
