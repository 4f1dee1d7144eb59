"""Readers change their password on the site's own page (Django's
PasswordChangeView), linked from the settings menu: the old password is asked
for, the password rules apply, and this browser stays signed in."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import PASSWORD

NEW_PASSWORD = "a brand new staple battery"


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def browser(alice: User) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def change(browser: Client, old: str, new: str, again: str | None = None) -> Any:
    return browser.post(
        "/accounts/password/", {"old_password": old, "new_password1": new, "new_password2": again or new}
    )


def signs_in(password: str) -> bool:
    return Client().post("/accounts/login/", {"username": "alice", "password": password}).status_code == 302


def test_the_page_is_in_the_sites_look_and_linked_from_the_settings_menu(browser: Client) -> None:
    assert 'href="/accounts/password/"' in browser.get("/").content.decode()
    page = browser.get("/accounts/password/").content.decode()
    assert "<h1>Change password</h1>" in page and 'class="site-header"' in page
    assert 'name="old_password"' in page


def test_the_password_changes_and_this_browser_stays_signed_in(browser: Client) -> None:
    response = change(browser, PASSWORD, NEW_PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/accounts/password/changed/"
    assert "Password changed" in browser.get("/accounts/password/changed/").content.decode()
    assert browser.get("/").status_code == 200
    assert signs_in(NEW_PASSWORD) and not signs_in(PASSWORD)


@pytest.mark.parametrize(
    ("old", "new", "again", "message"),
    [
        ("wrong", NEW_PASSWORD, None, "Your old password was entered incorrectly"),
        (PASSWORD, "1234", None, "This password is too short"),
        (PASSWORD, "password", None, "This password is too common"),
        (PASSWORD, NEW_PASSWORD, "something else", "didn"),
    ],
)
def test_a_bad_change_is_refused_with_a_message(
    browser: Client, old: str, new: str, again: str | None, message: str
) -> None:
    response = change(browser, old, new, again)
    assert response.status_code == 200 and message in response.content.decode()
    assert signs_in(PASSWORD)


def test_visitors_are_sent_to_sign_in() -> None:
    response = Client().get("/accounts/password/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
