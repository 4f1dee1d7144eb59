"""Sign up (with the password rules), sign in, sign out (POST only)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import PASSWORD


def test_sign_up_opens_the_feed(client: Client, db: None) -> None:
    response = client.post(
        "/accounts/signup/", {"username": "dora", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/").status_code == 200
    assert User.objects.filter(username="dora").exists()


def test_weak_or_mismatched_passwords_are_refused_with_reasons(client: Client, db: None) -> None:
    for password1, password2, reason in (
        ("password", "password", "too common"),
        ("12345678901", "12345678901", "entirely numeric"),
        ("short", "short", "too short"),
        (PASSWORD, PASSWORD + "!", "didn’t match"),
    ):
        page = client.post(
            "/accounts/signup/", {"username": "dora", "password1": password1, "password2": password2}
        ).content.decode()
        assert reason in page, reason
    assert not User.objects.filter(username="dora").exists()


def test_a_taken_username_is_refused(client: Client, alice: User) -> None:
    page = client.post(
        "/accounts/signup/", {"username": "alice", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert "already exists" in page.content.decode()


def test_sign_in_and_sign_out(client: Client, alice: User) -> None:
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/accounts/logout/").status_code == 405  # a link cannot sign anyone out
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/favourites/").status_code == 302  # not signed in: "/" is the landing page
