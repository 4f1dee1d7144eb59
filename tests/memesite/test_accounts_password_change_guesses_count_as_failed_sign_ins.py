"""A wrong old password on the password pages (the site's and the admin's)
counts as a failed sign-in of that username at that address: after
LOGIN_FAILURE_LIMIT of them the pair is locked, for changing the password and
for signing in, as sign-in's own failures lock it. Before, a signed-in browser
could guess the old password without limit (40 wrong, then the right one
changed it)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import PASSWORD

HOME, ELSEWHERE = "203.0.113.5", "198.51.100.7"
NEW_PASSWORD = "a brand new staple battery"


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def signed_in(user: User) -> Client:
    client = Client(REMOTE_ADDR=HOME)
    client.force_login(user)
    return client


def change(browser: Client, old: str, page: str = "/accounts/password/") -> int:
    form = {"old_password": old, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    return browser.post(page, form).status_code


def sign_in(username: str, address: str) -> int:
    credentials = {"username": username, "password": PASSWORD}
    return Client(REMOTE_ADDR=address).post("/accounts/login/", credentials).status_code


def test_the_fifth_wrong_old_password_locks_the_page_and_sign_in_at_that_address(alice: User) -> None:
    browser = signed_in(alice)
    assert [change(browser, f"guess {n}") for n in range(5)] == [200, 200, 200, 200, 429]
    assert change(browser, PASSWORD) == 429  # the right one too, while locked
    assert sign_in("alice", HOME) == 429
    assert sign_in("alice", ELSEWHERE) == 302
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_a_reader_who_mistypes_a_few_times_still_changes_it(alice: User) -> None:
    browser = signed_in(alice)
    assert [change(browser, "typo") for _ in range(4)] == [200] * 4
    assert change(browser, PASSWORD) == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_the_admins_password_page_counts_them_the_same(staff: User) -> None:
    browser = signed_in(staff)
    page = browser.get("/admin/password_change/").content.decode()
    assert 'name="old_password"' in page and "memesite curation" in page
    guesses = [change(browser, f"guess {n}", "/admin/password_change/") for n in range(5)]
    assert guesses == [200, 200, 200, 200, 429]
    assert sign_in("staff", HOME) == 429
    assert change(browser, PASSWORD, "/admin/password_change/") == 429


def test_the_admins_page_still_changes_the_password(staff: User) -> None:
    browser = signed_in(staff)
    assert change(browser, PASSWORD, "/admin/password_change/") == 302
    staff.refresh_from_db()
    assert staff.check_password(NEW_PASSWORD)
