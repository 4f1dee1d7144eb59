"""Answers keep to the shapes the OpenAPI schema documents: each test here
guards a mismatch that fuzzing the API (test_api_survives_fuzzing) found."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from tests.conftest import make_meme


def test_feed_times_carry_their_zone(client: Client, alice: User, template: Template) -> None:
    make_meme(template)
    client.force_login(alice)
    [item] = client.get("/api/feed/").json()["results"]
    assert item["created_at"].endswith("Z")
