"""A request Django refuses as suspicious (a Host not in ALLOWED_HOSTS, a body
over DATA_UPLOAD_MAX_MEMORY_SIZE) is a client's mistake or a probe, answered
with a 4xx: the log gets one WARNING line naming what was refused, not an
ERROR with a traceback. Under /api/ the answer is JSON."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from memesite.settings import LOGGING


def refusal_lines(caplog: pytest.LogCaptureFixture, name: str) -> list[str]:
    """The records of logger ``name``, formatted as the site's log handler writes them."""
    formatters: Any = LOGGING["formatters"]
    formatter = logging.Formatter(formatters["plain"]["format"])
    assert all(record.levelno < logging.ERROR for record in caplog.records)
    return [formatter.format(record) for record in caplog.records if record.name == name]


@pytest.mark.parametrize(("path", "content_type"), [("/", "text/html"), ("/api/feed/", "application/json")])
def test_an_unknown_host_is_one_warning_line(
    client: Client, db: None, path: str, content_type: str, caplog: pytest.LogCaptureFixture
) -> None:
    response = client.get(path, headers={"Host": "evil.example.com"})

    assert response.status_code == 400
    assert response["Content-Type"].startswith(content_type)
    [line] = refusal_lines(caplog, "django.security.DisallowedHost")
    assert " WARNING django.security.DisallowedHost: Invalid HTTP_HOST header: 'evil.example.com'." in line
    assert "\n" not in line


def test_a_body_over_the_memory_limit_is_one_warning_line(
    client: Client, db: None, caplog: pytest.LogCaptureFixture
) -> None:
    body = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.post("/api/auth/token/", body, content_type="application/json")

    assert response.status_code == 413
    [line] = refusal_lines(caplog, "django.security.RequestDataTooBig")
    refusal = "Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE."
    assert line.endswith(f" WARNING django.security.RequestDataTooBig: {refusal}")


def test_a_refusal_is_not_logged_when_the_level_is_above_warnings(
    client: Client, db: None, caplog: pytest.LogCaptureFixture
) -> None:
    logging.getLogger("django.security.DisallowedHost").setLevel(logging.ERROR)
    try:
        client.get("/", headers={"Host": "evil.example.com"})
    finally:
        logging.getLogger("django.security.DisallowedHost").setLevel(logging.NOTSET)
    assert refusal_lines(caplog, "django.security.DisallowedHost") == []
