"""A request declaring a body over MAX_REQUEST_BYTES is a 413 naming the size
and the limit, and nothing reads the body: a mistaken huge upload costs the
site nothing. Bodies within the limit go through as before."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

LIMIT = 1_000_000


class Unreadable(io.RawIOBase):
    def read(self, size: int = -1) -> bytes:
        raise AssertionError("the body was read")

    def readline(self, size: int | None = -1) -> bytes:
        raise AssertionError("the body was read")


def huge(client: Client, path: str) -> Any:
    environ: dict[str, Any] = {"CONTENT_LENGTH": str(LIMIT + 1), "wsgi.input": Unreadable()}
    return client.generic("POST", path, b"{}", content_type="application/json", **environ)


@override_settings(MAX_REQUEST_BYTES=LIMIT)
def test_an_api_request_over_the_limit_is_a_413_in_json(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = huge(client, "/api/memes/1/report/")
    assert response.status_code == 413
    assert response.json() == {"detail": "The request is 1.0 MB; the limit is 1.0 MB."}


@override_settings(MAX_REQUEST_BYTES=LIMIT)
def test_an_admin_upload_over_the_limit_is_a_413_before_the_form_reads_it(client: Client, db: None) -> None:
    client.force_login(User.objects.create_superuser("curator", password="x-long-password-1"))
    response = huge(client, "/admin/feed/template/add/")
    assert response.status_code == 413
    assert b"the limit is 1.0 MB" in response.content


@override_settings(MAX_REQUEST_BYTES=LIMIT)
def test_a_request_within_the_limit_goes_through(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.patch("/api/me/settings/", {"theme": "dark"}, content_type="application/json")
    assert response.status_code == 200


@pytest.mark.parametrize("length", ["", "abc", "-5"])
@override_settings(MAX_REQUEST_BYTES=LIMIT)
def test_a_missing_or_malformed_length_is_left_to_django(client: Client, alice: User, length: str) -> None:
    client.force_login(alice)
    response = client.generic("GET", "/api/me/settings/", CONTENT_LENGTH=length)
    assert response.status_code == 200
