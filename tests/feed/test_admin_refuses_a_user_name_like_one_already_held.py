"""The admin's forms for adding and renaming a user refuse a name too like one
another user holds, with the sign-up page's message; a user's own name in
another case is no lookalike of theirs, and a user whose name is left as it is
can be edited whatever it looks like."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from feed.models import UsernameSkeleton
from feed.names import TOO_ALIKE
from tests.conftest import PASSWORD


def curator(staff: User) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def rename(client: Client, user: User, username: str, active: bool = True) -> int:
    """Post the admin's change form for ``user`` as it stands, with a new name."""
    form = {
        "username": username,
        "email": user.email,
        **({"is_active": "on"} if active else {}),
        "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
    }
    answer = client.post(f"/admin/auth/user/{user.pk}/change/", form)
    assert answer.status_code == 302 or TOO_ALIKE in answer.content.decode(), answer.content.decode()
    return answer.status_code


def test_adding_a_lookalike_of_alice_is_refused(staff: User, alice: User) -> None:
    form = {"username": "\u0430lice", "password1": PASSWORD, "password2": PASSWORD, "usable_password": "true"}
    answer = curator(staff).post("/admin/auth/user/add/", form)
    assert TOO_ALIKE in answer.content.decode()
    assert not User.objects.filter(username="\u0430lice").exists()


def test_renaming_bob_to_a_lookalike_of_alice_is_refused(staff: User, alice: User, bob: User) -> None:
    assert rename(curator(staff), bob, "AL\u0406CE") == 200  # І: Cyrillic capital Byelorussian-Ukrainian I
    bob.refresh_from_db()
    assert bob.username == "bob"


def test_alice_may_be_renamed_in_another_case(staff: User, alice: User, charlie: User) -> None:
    assert rename(curator(staff), alice, "Alice") == 302
    alice.refresh_from_db()
    assert alice.username == "Alice"
    assert rename(curator(staff), charlie, "alice") == 200  # and then no one else may be alice


def test_a_lookalike_from_before_the_keys_can_still_be_deactivated(
    staff: User, alice: User, bob: User
) -> None:
    User.objects.filter(pk=bob.pk).update(username="\u0430lice")  # as migration 0012 leaves one
    UsernameSkeleton.objects.filter(user=bob).delete()
    bob.refresh_from_db()
    assert rename(curator(staff), bob, "\u0430lice", active=False) == 302
    bob.refresh_from_db()
    assert not bob.is_active
