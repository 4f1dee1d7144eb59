"""Every sign-in attempt, right or wrong, on the page or for an API token,
takes a use of THROTTLE_SIGN_IN for its address before any password is
checked: a check costs about a second of a web worker, and the lock-outs
bound only wrong passwords. Before, an anonymous client could ask for
password checks without end."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.hashers import check_password
from django.contrib.auth.models import User
from django.test import Client

from memesite.sign_in_limits import SIGN_IN_REFUSED
from tests.conftest import PASSWORD
from tests.parallel import all_at_once

HOME, ELSEWHERE = "203.0.113.5", "198.51.100.7"


@pytest.fixture(autouse=True)
def three_an_hour(settings: Any) -> None:
    settings.THROTTLE_SIGN_IN = "3/hour"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_in(address: str, password: str = PASSWORD, api: bool = False) -> Any:
    credentials = {"username": "alice", "password": password}
    if api:
        return Client(REMOTE_ADDR=address).post("/api/auth/token/", credentials, "application/json")
    return Client(REMOTE_ADDR=address).post("/accounts/login/", credentials)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each password the site checks."""
    checked: list[str] = []

    def counted(password: str, encoded: str, *args: Any, **kwargs: Any) -> bool:
        checked.append(password)
        return check_password(password, encoded, *args, **kwargs)

    monkeypatch.setattr("django.contrib.auth.base_user.check_password", counted)
    return checked


def test_the_fourth_attempt_from_an_address_is_refused_unchecked(alice: User, checks: list[str]) -> None:
    assert [sign_in(HOME, "typo").status_code, sign_in(HOME).status_code, sign_in(HOME).status_code] == [
        200,
        302,
        302,
    ]
    refused = sign_in(HOME)
    assert refused.status_code == 429 and SIGN_IN_REFUSED in refused.content.decode()
    api = sign_in(HOME, api=True)
    assert api.status_code == 429 and int(api["Retry-After"]) >= 1
    assert len(checks) == 3
    assert sign_in(ELSEWHERE, api=True).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_parallel_attempts_from_one_address_get_the_limit(alice: User) -> None:
    answers = all_at_once([lambda: sign_in(HOME, "guess", api=True)] * 30)
    codes = sorted(answer.status_code for answer in answers)
    assert codes == [400] * 3 + [429] * 27
