"""The hourly upkeep (feed.tasks.tidy_feed) forgets expired sessions, failed
sign-ins past the cool-off (LOGIN_COOLOFF_MINUTES) and logs of sign-ins older
than LOGIN_LOG_DAYS (memesite/sign_in_records.py); what is recent stays, and a
lock-out still in its cool-off still holds."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from feed.tasks import tidy_feed
from tests.conftest import PASSWORD


@pytest.fixture(autouse=True)
def fast_hasher(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_in(username: str, password: str, address: str) -> int:
    form = {"username": username, "password": password}
    return Client(REMOTE_ADDR=address).post("/accounts/login/", form).status_code


def age(rows: Any, by: timedelta) -> None:
    rows.update(attempt_time=timezone.now() - by)


def test_expired_sessions_go_and_live_ones_stay(alice: User, bob: User) -> None:
    for reader in (alice, bob):
        Client().force_login(reader)
    sessions = {session.get_decoded()["_auth_user_id"]: session.pk for session in Session.objects.all()}
    expired = timezone.now() - timedelta(seconds=1)
    Session.objects.filter(pk=sessions[str(alice.pk)]).update(expire_date=expired)

    tidy_feed.delay()

    assert Session.objects.count() == 1
    assert Session.objects.get().get_decoded()["_auth_user_id"] == str(bob.pk)


def test_failed_sign_ins_go_once_past_the_cool_off(settings: Any, alice: User, bob: User) -> None:
    settings.AXES_COOLOFF_TIME = 15 / 60  # hours
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in("alice", "nope", "203.0.113.7")
        sign_in("bob", "nope", "198.51.100.2")
    age(AccessAttempt.objects.filter(username="alice"), timedelta(minutes=16))
    age(AccessAttempt.objects.filter(username="bob"), timedelta(minutes=14))

    tidy_feed.delay()

    assert list(AccessAttempt.objects.values_list("username", flat=True)) == ["bob"]
    assert sign_in("alice", PASSWORD, "203.0.113.7") == 302
    assert sign_in("bob", PASSWORD, "198.51.100.2") == 429  # still locked out


def test_logs_of_sign_ins_are_kept_for_login_log_days(settings: Any, alice: User, bob: User) -> None:
    settings.LOGIN_LOG_DAYS = 30
    settings.AXES_ENABLE_ACCESS_FAILURE_LOG = True
    for reader in ("alice", "bob"):
        assert sign_in(reader, PASSWORD, "203.0.113.7") == 302
        sign_in(reader, "nope", "203.0.113.7")
    age(AccessLog.objects.filter(username="alice"), timedelta(days=30, minutes=1))
    age(AccessFailureLog.objects.filter(username="alice"), timedelta(days=30, minutes=1))
    age(AccessLog.objects.filter(username="bob"), timedelta(days=29))

    tidy_feed.delay()

    assert list(AccessLog.objects.values_list("username", flat=True)) == ["bob"]
    assert list(AccessFailureLog.objects.values_list("username", flat=True)) == ["bob"]
