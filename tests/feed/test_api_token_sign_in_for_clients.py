"""API clients sign in for a token and send it as "Authorization: Token …";
wrong passwords get a plain 400, and repeated failures lock the account and
address out exactly like the sign-in page (django-axes)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

from feed.models import Template
from tests.conftest import PASSWORD
from tests.feed_data import bulk_memes


def ask_token(client: Client, username: str, password: str) -> tuple[int, dict[str, object]]:
    response = client.post(
        "/api/auth/token/", {"username": username, "password": password}, content_type="application/json"
    )
    return response.status_code, response.json() if response.get("Content-Type", "").startswith(
        "application/json"
    ) else {}


def test_a_token_opens_the_feed(client: Client, alice: User, template: Template) -> None:
    bulk_memes(template, 3)
    code, body = ask_token(client, "alice", PASSWORD)
    assert code == 200
    page = client.get("/api/feed/", HTTP_AUTHORIZATION=f"Token {body['token']}").json()
    assert len(page["results"]) == 3


def test_a_wrong_password_is_a_plain_refusal(client: Client, alice: User) -> None:
    code, body = ask_token(client, "alice", "wrong")
    assert code == 400 and body["detail"] == ["Unable to sign in with that username and password."]


def test_repeated_failures_lock_the_account_out(client: Client, alice: User) -> None:
    for _ in range(5):
        ask_token(client, "alice", "wrong")
    code, _ = ask_token(client, "alice", PASSWORD)
    assert code in (403, 429)


def test_a_locked_out_client_is_told_so_in_json(client: Client, alice: User) -> None:
    for _ in range(5):
        ask_token(client, "alice", "wrong")
    code, body = ask_token(client, "alice", PASSWORD)
    assert code == 429 and "locked" in str(body["detail"]).lower()


def test_a_revoked_token_stops_reads_and_writes_at_once(
    client: Client, alice: User, template: Template
) -> None:
    meme = bulk_memes(template, 1)[0]
    _, body = ask_token(client, "alice", PASSWORD)
    header: dict[str, Any] = {"HTTP_AUTHORIZATION": f"Token {body['token']}"}
    assert client.get("/api/feed/", **header).status_code == 200
    Token.objects.filter(user=alice).delete()
    assert client.get("/api/feed/", **header).status_code in (401, 403)
    assert client.get(f"/api/memes/{meme.pk}/", **header).status_code in (401, 403)
    assert client.put(f"/api/memes/{meme.pk}/favourite/", **header).status_code in (401, 403)


def test_a_form_body_is_refused_the_api_takes_json(client: Client, alice: User) -> None:
    response = client.post("/api/auth/token/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 415
    assert "Unsupported media type" in response.json()["detail"]
