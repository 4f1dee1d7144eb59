"""Choosing a username: sign-up (Django's own form, so the password rules in
settings apply) and the admin's forms for adding and renaming users. Each
refuses a name too like one already held (feed/names.py)."""

from __future__ import annotations

from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from feed.models import UsernameSkeleton
from feed.names import TOO_ALIKE


def refuse_names_like(name: str, user_id: int | None = None) -> None:
    """Refuse ``name`` when a user other than ``user_id`` holds a name it is too
    like. The message names no one: it tells no more than Django's "already exists"."""
    alike = UsernameSkeleton.objects.like(name)
    if user_id is not None:
        alike = alike.exclude(user_id=user_id)
    if alike.exists():
        raise ValidationError(TOO_ALIKE, code="too_alike")


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)

    def clean_username(self) -> str:
        name = super().clean_username()
        if name:  # Django's check gives None for a name taken already, in any case
            refuse_names_like(name)
        return name

    def save(self, commit: bool = True) -> User:
        # The user's row goes with its skeleton keys or not at all: a lookalike
        # signed up since the check above is refused by the keys' unique indexes.
        with transaction.atomic():
            user: User = super().save(commit)
        return user


class AddUserForm(AdminUserCreationForm):  # type: ignore[type-arg]
    def clean_username(self) -> str:
        name = super().clean_username()
        if name:  # as in SignUpForm
            refuse_names_like(name)
        return name


class ChangeUserForm(UserChangeForm):  # type: ignore[type-arg]
    def clean_username(self) -> str:
        name: str = self.cleaned_data["username"]
        # Only a new name is checked: a lookalike that stood before the keys came
        # (migration 0012) can still be edited, deactivated for one.
        if "username" in self.changed_data:
            refuse_names_like(name, self.instance.pk)
        return name
