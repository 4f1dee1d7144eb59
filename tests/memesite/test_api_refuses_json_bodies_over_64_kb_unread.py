"""The API's parser refuses a JSON body over 64 KB with a 413 in JSON, before
reading it when its length is declared: no endpoint takes more than a few
kilobytes, and parsing the 12 MB Django accepts took 3 s of a web worker,
anonymously, on the token endpoint."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.exceptions import APIException

from memesite.parsers import MAX_JSON_BYTES, TOO_LARGE, DepthLimitedJSONParser


def padded(size: int) -> str:
    """Sign-in credentials padded with spaces to exactly ``size`` bytes."""
    body = json.dumps({"username": "alice", "password": "guess"})
    return body + " " * (size - len(body))


@pytest.mark.django_db
def test_a_body_over_the_limit_is_a_413_in_json(client: Client) -> None:
    answer = client.post("/api/auth/token/", padded(MAX_JSON_BYTES + 1), "application/json")
    assert answer.status_code == 413 and answer.json() == {"detail": TOO_LARGE}


@pytest.mark.django_db
def test_a_body_at_the_limit_is_read_as_ever(client: Client) -> None:
    answer = client.post("/api/auth/token/", padded(MAX_JSON_BYTES), "application/json")
    assert answer.status_code == 400  # wrong credentials, read and refused as usual


class Unread(io.BytesIO):
    def read(self, *args: Any) -> bytes:
        raise AssertionError("the body was read")


class Declared:
    META = {"CONTENT_LENGTH": str(12_000_000)}


def test_a_declared_length_over_the_limit_is_refused_unread() -> None:
    with pytest.raises(APIException) as refused:
        DepthLimitedJSONParser().parse(Unread(), "application/json", {"request": Declared()})
    assert refused.value.status_code == 413


def test_a_body_without_its_length_is_read_no_further_than_the_limit() -> None:
    stream = io.BytesIO(padded(5 * MAX_JSON_BYTES).encode())
    with pytest.raises(APIException):
        DepthLimitedJSONParser().parse(stream, "application/json", {"request": None})
    assert stream.tell() == MAX_JSON_BYTES + 1
