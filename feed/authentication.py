"""Token authentication for the feed's read endpoints, remembered per process.

Every feed page would otherwise spend a database round trip on the token
before its one real query; under load that trip costs as much as the page
(bench/feed.py). Reads accept a token known to this process for up to
TOKEN_MEMORY_SECONDS; writes keep DRF's own TokenAuthentication, so a revoked
token can still read for at most that long but never change anything."""

from __future__ import annotations

import time
from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import TokenAuthentication

TOKEN_MEMORY_SECONDS = 30.0
MAX_REMEMBERED = 10_000


class RememberedTokenAuthentication(TokenAuthentication):
    _remembered: dict[str, tuple[float, tuple[Any, Any]]] = {}

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        now = time.monotonic()
        found = self._remembered.get(key)
        if found is not None and now - found[0] < TOKEN_MEMORY_SECONDS:
            return found[1]
        credentials: tuple[Any, Any] = super().authenticate_credentials(key)
        if len(self._remembered) >= MAX_REMEMBERED:
            self._remembered.clear()  # rare; cheaper than tracking the oldest
        self._remembered[key] = (now, credentials)
        return credentials

    @classmethod
    def forget_all(cls) -> None:
        cls._remembered.clear()


class RememberedTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The same "Authorization: Token …" header in the OpenAPI schema, under its
    own name: drf-spectacular refuses two classes behind one scheme name."""

    target_class = RememberedTokenAuthentication
    name = "readToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'Token-based authentication with required prefix "Token" (read endpoints)',
        }
