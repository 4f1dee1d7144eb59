"""Sign-in lock-outs behind the HTTPS proxy count the client's address, not
the proxy's: an attacker who guesses alice's password from elsewhere locks only
himself out, and one address spraying guesses over many usernames is locked."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import PASSWORD

PROXY = "10.0.0.2"
ALICE_AT_HOME = "203.0.113.5"
ATTACKER = "198.51.100.7"


@pytest.fixture(autouse=True)
def behind_the_proxy(settings: Any) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    # Dozens of sign-ins: the real hasher's million rounds would take minutes.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_in(username: str, password: str, address: str, api: bool = False) -> int:
    """Through the proxy: it connects from PROXY and appends the client's address."""
    headers: dict[str, Any] = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": address}
    credentials = {"username": username, "password": password}
    if api:
        response = Client().post("/api/auth/token/", credentials, "application/json", **headers)
    else:
        response = Client().post("/accounts/login/", credentials, **headers)
    return response.status_code


def test_an_attacker_failing_for_alice_does_not_stop_alice_signing_in(alice: User) -> None:
    for _ in range(5):
        sign_in("alice", "guess", ATTACKER)
    assert sign_in("alice", PASSWORD, ATTACKER) == 429  # he is locked out of alice's account
    assert sign_in("alice", PASSWORD, ALICE_AT_HOME) == 302  # she is not
    assert sign_in("alice", PASSWORD, ALICE_AT_HOME, api=True) == 200


def test_one_address_failing_across_twenty_usernames_is_locked(alice: User, bob: User) -> None:
    for number in range(19):
        assert sign_in(f"reader{number}", "password1", ATTACKER) == 200  # the form again, one try each
    assert sign_in("reader19", "password1", ATTACKER) == 429  # the twentieth failure locks the address
    assert sign_in("bob", PASSWORD, ATTACKER) == 429
    assert sign_in("bob", PASSWORD, ATTACKER, api=True) == 429
    assert sign_in("bob", PASSWORD, ALICE_AT_HOME) == 302


def test_signing_into_his_own_account_does_not_clear_the_addresss_count(alice: User, charlie: User) -> None:
    for number in range(19):
        sign_in(f"reader{number}", "password1", ATTACKER)
    assert sign_in("charlie", PASSWORD, ATTACKER) == 302
    sign_in("reader19", "password1", ATTACKER)
    assert sign_in("charlie", PASSWORD, ATTACKER) == 429


def test_a_reader_who_mistypes_and_then_signs_in_starts_afresh(alice: User) -> None:
    for _ in range(4):
        sign_in("alice", "typo", ALICE_AT_HOME)
    assert sign_in("alice", PASSWORD, ALICE_AT_HOME) == 302
    for _ in range(4):
        sign_in("alice", "typo", ALICE_AT_HOME)
    assert sign_in("alice", PASSWORD, ALICE_AT_HOME) == 302
