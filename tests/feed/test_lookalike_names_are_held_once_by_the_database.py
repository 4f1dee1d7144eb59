"""A username's skeleton keys are unique in the database (feed.UsernameSkeleton),
so a lookalike is refused where no form checks (a script, a rename) and of two
lookalike sign-ups at once one makes an account: both pass the form's check
before either is saved, and the second's keys fail to insert. `make
unit-postgresql` runs these on PostgreSQL too."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.test import Client

from feed import forms
from feed.models import UsernameSkeleton
from feed.names import TOO_ALIKE
from tests.conftest import PASSWORD
from tests.parallel import all_at_once

ADMIN, CYRILLIC_ADMIN = "admin", "\u0430dmin"  # а: Cyrillic small a


@pytest.fixture(autouse=True)
def fast_hasher(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_up(username: str, address: str) -> HttpResponse:
    form = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return Client(REMOTE_ADDR=address).post("/accounts/signup/", form)  # type: ignore[return-value]


def test_a_lookalike_made_without_a_form_is_refused_before_its_row_is_written(alice: User) -> None:
    with pytest.raises(IntegrityError, match="too like"):
        User.objects.create_user("\u0430lice")  # as a script or createsuperuser would
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


def test_a_rename_to_a_lookalike_is_refused_and_a_rename_moves_the_keys(alice: User, bob: User) -> None:
    bob.username = "aIice"  # capital i for the small L
    with pytest.raises(IntegrityError), transaction.atomic():
        bob.save()
    bob.username = "robert"
    bob.save()
    assert UsernameSkeleton.objects.like("robert").get().user_id == bob.pk
    assert not UsernameSkeleton.objects.like("bob").exists()


def test_signing_in_leaves_the_keys_alone(alice: User, client: Client) -> None:
    held = UsernameSkeleton.objects.get(user=alice)
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 302
    assert UsernameSkeleton.objects.get(user=alice) == held


def test_a_sign_up_the_form_let_through_gets_the_message(db: None, monkeypatch: Any) -> None:
    """What the losing sign-up of a race sees: its form checked before the other was saved."""
    assert sign_up(ADMIN, "203.0.113.7").status_code == 302
    monkeypatch.setattr(forms, "refuse_names_like", lambda name, user_id=None: None)
    answer = sign_up(CYRILLIC_ADMIN, "198.51.100.2")
    assert answer.status_code == 200 and TOO_ALIKE in answer.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == [ADMIN]


@pytest.mark.django_db(transaction=True)
def test_two_lookalike_sign_ups_at_once_make_one_account(settings: Any) -> None:
    settings.THROTTLE_SIGN_UP = "100/hour"  # 8 rounds from each address
    # Rounds that race past the form's check, in probes of 40: 20 and 23 on SQLite, 35 on PostgreSQL.
    for round_ in range(8):
        answers = all_at_once(
            [partial(sign_up, ADMIN, "203.0.113.7"), partial(sign_up, CYRILLIC_ADMIN, "198.51.100.2")]
        )
        assert sorted(answer.status_code for answer in answers) == [200, 302], round_
        refused = next(answer for answer in answers if answer.status_code == 200)
        assert TOO_ALIKE in refused.content.decode()
        assert User.objects.count() == UsernameSkeleton.objects.count() == 1
        User.objects.all().delete()
