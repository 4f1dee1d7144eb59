"""A body between Django's in-memory limit (DATA_UPLOAD_MAX_MEMORY_SIZE,
12 MiB) and MAX_REQUEST_BYTES (32 MB) is refused by Django, not by the size
middleware: under /api/ that is a 413 in JSON like every other API refusal,
a plain 413 elsewhere, and one warning line in the log, not a traceback."""

from __future__ import annotations

import logging

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

SIZE = 13 * 1024 * 1024


def body() -> str:
    return '{"username": "' + "a" * (SIZE - 16) + '"}'


@pytest.mark.parametrize(("method", "path"), [("POST", "/api/auth/token/"), ("PATCH", "/api/me/settings/")])
def test_an_api_body_over_the_memory_limit_is_a_413_in_json(
    client: Client, alice: User, method: str, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE < SIZE < settings.MAX_REQUEST_BYTES
    client.force_login(alice)
    response = client.generic(method, path, body(), content_type="application/json")

    assert response.status_code == 413
    assert response.json() == {"detail": "The request is 13.6 MB; the limit is 12.6 MB."}
    refusals = [record for record in caplog.records if record.name == "django.security.RequestDataTooBig"]
    assert len(refusals) == 1 and refusals[0].levelno == logging.WARNING and not refusals[0].exc_info
    assert all(record.levelno < logging.ERROR for record in caplog.records)


def test_a_form_over_the_memory_limit_is_a_plain_413(client: Client, db: None) -> None:
    form = "username=alice&bio=" + "a" * SIZE
    response = client.post("/accounts/signup/", form, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert b"the limit is 12.6 MB" in response.content
