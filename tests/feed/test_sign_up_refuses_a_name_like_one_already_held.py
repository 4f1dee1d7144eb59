"""Sign-up refuses a name a reader could take for one already held, by Unicode's
confusable skeleton (UTS #39, feed/names.py): another script's lookalike letters,
capital i for small L, and either of those in another case. The message says
the name is too alike, not whose it is too like."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.names import TOO_ALIKE
from tests.conftest import PASSWORD


def sign_up(username: str) -> str:
    form = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    answer = Client().post("/accounts/signup/", form)
    return "signed up" if answer.status_code == 302 else answer.content.decode()


@pytest.mark.parametrize(
    "lookalike",
    [
        "\u0430lice",  # а: Cyrillic small a
        "al\u0456ce",  # і: Cyrillic small Byelorussian-Ukrainian i
        "aIice",  # capital i for the small L
        "\u0410LICE",  # А: Cyrillic capital A, and the rest in capitals
    ],
)
def test_a_lookalike_of_alice_is_refused_with_the_message(alice: User, lookalike: str) -> None:
    page = sign_up(lookalike)
    assert TOO_ALIKE in page
    assert not User.objects.filter(username=lookalike).exists()


def test_alice_in_another_case_or_in_fancy_letters_is_refused_as_django_refuses_it(alice: User) -> None:
    # Django folds 𝔞 (mathematical fraktur) to a before anything compares names.
    for same in ("Alice", "ALICE", "\U0001d51eli\U0001d520e"):
        assert "A user with that username already exists." in sign_up(same)


def test_a_lookalike_of_a_curator_is_refused(staff: User) -> None:
    assert TOO_ALIKE in sign_up("\u0455taff")  # ѕ: Cyrillic small dze


def test_the_message_does_not_name_the_reader_it_is_like(alice: User) -> None:
    page = sign_up("\u0430lice")
    assert 'value="\u0430lice"' in page  # the form keeps what was typed
    assert page.count("alice") == 0


def test_names_that_only_share_letters_still_sign_up(alice: User) -> None:
    assert [sign_up(name) for name in ("alicia", "alice2", "malice", "bob")] == ["signed up"] * 4
