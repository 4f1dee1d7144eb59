"""An IPv6 client is counted by its /64 in every per-address limit: a home or
a phone is given a whole /64 and can send from any address in it, so sign-ups
and sign-in failures from one /64 count as one client's, and another /64 is
another client."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from memesite.addresses import client_address
from tests.conftest import PASSWORD

HOME = "2001:db8:5:7::"  # one subscriber's /64
NEXT_DOOR = "2001:db8:5:8::1"


@pytest.fixture(autouse=True)
def quick_hashes(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.THROTTLE_SIGN_UP = "3/hour"


def at_home(number: int) -> str:
    """The ``number``-th address in the home's /64."""
    return f"2001:db8:5:7:{number:x}:{number * 7:x}:9:{number + 1:x}"


def test_every_address_of_a_64_is_the_same_client() -> None:
    for number in (0, 1, 4000):
        assert client_address(RequestFactory().get("/", REMOTE_ADDR=at_home(number))) == HOME
    assert client_address(RequestFactory().get("/", REMOTE_ADDR=NEXT_DOOR)) != HOME


def sign_up(address: str, number: int) -> int:
    password = f"a long password {number}"
    form = {"username": f"reader{number}", "password1": password, "password2": password}
    return Client().post("/accounts/signup/", form, REMOTE_ADDR=address).status_code


def test_sign_ups_from_one_64_share_its_hourly_limit(db: None) -> None:
    assert [sign_up(at_home(number), number) for number in range(4)] == [302, 302, 302, 429]
    assert sign_up(NEXT_DOOR, 9) == 302


def sign_in(username: str, password: str, address: str) -> int:
    credentials = {"username": username, "password": password}
    return Client().post("/accounts/login/", credentials, REMOTE_ADDR=address).status_code


def test_sign_in_failures_from_one_64_lock_it_wherever_in_it_they_come_from(alice: User) -> None:
    for number in range(19):
        assert sign_in(f"reader{number}", "guess", at_home(number)) == 200
    assert sign_in("reader19", "guess", at_home(19)) == 429
    assert sign_in("alice", PASSWORD, at_home(77)) == 429
    assert sign_in("alice", PASSWORD, NEXT_DOOR) == 302
