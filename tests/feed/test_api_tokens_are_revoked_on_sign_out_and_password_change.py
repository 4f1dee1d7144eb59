"""A reader's API token stops working, at once and for reads too, when they
sign their API clients out (DELETE /api/auth/token/, or the settings menu's
control), sign out of the site, or change their password by any route."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

from feed.models import Template
from tests.conftest import PASSWORD, make_meme

NEW_PASSWORD = "a brand new staple battery"


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def token_client(username: str = "alice") -> Client:
    response = Client().post(
        "/api/auth/token/", {"username": username, "password": PASSWORD}, "application/json"
    )
    client = Client(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get("/api/me/settings/").status_code == 200
    return client


def refused(client: Client) -> bool:
    return client.get("/api/feed/").status_code in (401, 403)


def browser_of(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def test_the_apis_sign_out_revokes_the_token_at_once(alice: User, template: Template) -> None:
    meme = make_meme(template)
    client = token_client()
    assert client.get("/api/feed/").status_code == 200  # a read the token has just made
    assert client.delete("/api/auth/token/").status_code == 204
    assert refused(client)
    assert client.get(f"/api/memes/{meme.pk}/").status_code in (401, 403)
    assert not Token.objects.exists()


def test_the_settings_menu_signs_out_the_readers_api_apps_and_keeps_the_browser(alice: User) -> None:
    client = token_client()
    browser = browser_of(alice)
    menu = browser.get("/favourites/").content.decode()
    assert 'id="revoke-token"' in menu and 'href="/accounts/password/"' in menu
    assert browser.delete("/api/auth/token/").status_code == 204  # what the menu's control sends
    assert refused(client)
    assert browser.get("/api/me/settings/").status_code == 200


def test_signing_out_of_the_site_revokes_the_readers_token(alice: User, bob: User) -> None:
    alices, bobs = token_client("alice"), token_client("bob")
    browser_of(alice).post("/accounts/logout/")
    assert refused(alices)
    assert not refused(bobs)


def test_a_visitor_cannot_revoke_anything(alice: User) -> None:
    client = token_client()
    assert Client().delete("/api/auth/token/").status_code in (401, 403)
    assert not refused(client)


def test_changing_the_password_on_the_site_revokes_the_token(alice: User) -> None:
    client = token_client()
    browser = browser_of(alice)
    response = browser.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert refused(client)


def test_a_password_set_in_the_admin_revokes_the_token(alice: User, staff: User) -> None:
    client = token_client()
    response = browser_of(staff).post(
        f"/admin/auth/user/{alice.pk}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )
    assert response.status_code == 302
    assert refused(client)


def test_a_password_set_in_code_revokes_the_token(alice: User) -> None:
    """As manage.py changepassword and any script do it."""
    client = token_client()
    alice.set_password(NEW_PASSWORD)
    alice.save()
    assert refused(client)
