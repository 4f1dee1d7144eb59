"""JSON nested deeper than any endpoint takes is a 400 with a message, on
every JSON endpoint, anonymous ones included, and logs no traceback: the API's
one parser limits nesting before Python's recursive decoder (or whatever walks
the value next) can run out of stack. (Deeper still, a body is over the
parser's 64 KB and refused by its size: test_api_refuses_json_bodies_over_64_kb_unread.)"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.settings import api_settings

from memesite.parsers import MAX_DEPTH, MESSAGE, DepthLimitedJSONParser


def arrays(depth: int) -> str:
    return "[" * depth + "]" * depth


def objects(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


TOO_DEEP = {
    "arrays 1,000 deep": arrays(1_000),
    "objects 1,000 deep": objects(1_000),
    "arrays 16,000 deep (64 KB)": arrays(16_000),
    "one level past the limit": f'{{"value": {arrays(MAX_DEPTH)}}}',
}
ENDPOINTS = [
    ("POST", "/api/auth/token/"),
    ("PUT", "/api/memes/1/reaction/"),
    ("POST", "/api/memes/1/report/"),
    ("PATCH", "/api/me/settings/"),
    ("POST", "/api/make/"),
]


@pytest.mark.parametrize("body", TOO_DEEP.values(), ids=TOO_DEEP.keys())
@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_too_deep_a_body_is_a_400_saying_so_with_no_traceback(
    client: Client, alice: User, method: str, path: str, body: str, caplog: pytest.LogCaptureFixture
) -> None:
    if path != "/api/auth/token/":
        client.force_login(alice)
    response = client.generic(method, path, body, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {"detail": MESSAGE}
    assert all(record.levelno < logging.ERROR and not record.exc_info for record in caplog.records)


def test_nesting_up_to_the_limit_reaches_validation(client: Client, alice: User) -> None:
    client.force_login(alice)
    body = f'{{"value": {arrays(MAX_DEPTH - 1)}}}'
    response = client.put("/api/memes/1/reaction/", body, content_type="application/json")
    assert response.status_code == 400
    assert "value" in response.json()


def test_the_depth_limited_parser_is_the_apis_only_parser() -> None:
    parsers: list[Any] = list(api_settings.DEFAULT_PARSER_CLASSES)
    assert parsers == [DepthLimitedJSONParser]
