"""API tokens ("Authorization: Token …"), DRF's one token per reader, with an
end: a token is good for API_TOKEN_DAYS from when it was issued, and is revoked
when its reader signs out (the API's DELETE auth/token/, or the site's sign-out)
or changes password. A revoked token stops working at once, in every process:
each request looks its token up in the database (one query: 0.30-0.45 ms of
Python and 0.16-0.19 ms of PostgreSQL CPU on the shared 2-core machine, where a
browser's session costs two queries; docs/feed.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.http import HttpRequest
from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed


class ExpiringTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user, token = super().authenticate_credentials(key)
        if has_expired(token):
            raise AuthenticationFailed("This token has expired: sign in again for a new one.")
        return user, token


def has_expired(token: Token) -> bool:
    return bool(token.created <= timezone.now() - settings.API_TOKEN_LIFETIME)


def issue_token(user: User) -> Token:
    """The reader's token, a fresh one if theirs has expired."""
    token, _ = Token.objects.get_or_create(user=user)
    if has_expired(token):
        # Delete by key: of two sign-ins at once, one deletes and both then get the same new token.
        Token.objects.filter(key=token.key).delete()
        token, _ = Token.objects.get_or_create(user=user)
    return token


def revoke_tokens(user: AbstractBaseUser | AnonymousUser | None) -> None:
    if user is not None and user.pk is not None:
        Token.objects.filter(user_id=user.pk).delete()


def revoke_on_sign_out(
    sender: Any, request: HttpRequest, user: AbstractBaseUser | None, **kwargs: Any
) -> None:
    """On Django's user_logged_out: signing out of the site signs the reader's API clients out too."""
    revoke_tokens(user)


class RevokeTokensOnPasswordChange:
    """In AUTH_PASSWORD_VALIDATORS for Django's password_changed() hook, which
    every way of setting a password calls once it is saved (the site's page,
    the admin, manage.py changepassword); it validates nothing."""

    def validate(self, password: str, user: AbstractBaseUser | None = None) -> None:
        return None

    def password_changed(self, password: str, user: AbstractBaseUser | None = None) -> None:
        revoke_tokens(user)

    def get_help_text(self) -> str:
        return "Changing your password signs out the apps that use your API token."
