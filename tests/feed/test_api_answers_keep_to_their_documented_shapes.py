"""Answers keep to the shapes the OpenAPI schema documents: each test here
guards a mismatch that fuzzing the API (test_api_survives_fuzzing) found."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from tests.conftest import make_meme


def test_feed_times_carry_their_zone(client: Client, alice: User, template: Template) -> None:
    make_meme(template)
    client.force_login(alice)
    [item] = client.get("/api/feed/").json()["results"]
    assert item["created_at"].endswith("Z")


@pytest.mark.parametrize("body", ["null", "[1, -1]", '"like"'])
def test_a_body_that_is_no_object_gets_a_400_object(
    client: Client, alice: User, template: Template, body: str
) -> None:
    meme = make_meme(template)
    client.force_login(alice)
    for method, path in [("put", f"/api/memes/{meme.pk}/reaction/"), ("post", "/api/auth/token/")]:
        response = getattr(client, method)(path, body, content_type="application/json")
        assert response.status_code == 400
        assert isinstance(response.json()["non_field_errors"], list)


@pytest.mark.parametrize("path", ["/api/memes/not-a-number/", "/api/make/not-a-uuid/", "/api/nothing-here/"])
def test_a_path_no_route_matches_is_a_json_404_under_the_api(client: Client, db: None, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


def test_a_page_no_route_matches_is_still_the_sites_404_page(client: Client, db: None) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("path", ["reaction/", "favourite/"])
def test_undoing_answers_with_the_meme_as_documented(
    client: Client, alice: User, template: Template, path: str
) -> None:
    meme = make_meme(template)
    client.force_login(alice)
    schema: dict[str, Any] = client.get("/api/schema/?format=json").json()
    documented = schema["paths"][f"/api/memes/{{meme_id}}/{path}"]["delete"]["responses"]
    response = client.delete(f"/api/memes/{meme.pk}/{path}")
    assert response.status_code == 200 and response.json()["id"] == meme.pk
    assert documented["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/FeedItem"
    }
