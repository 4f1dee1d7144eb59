"""The API renders JSON only, in every configuration: a browser asking for
HTML gets JSON, never DRF's browsable API (an HTML page with a form for every
endpoint), and ?format=api is not a format."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings

from feed.models import Template

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_a_browser_gets_json(client: Client, alice: User, template: Template) -> None:
    client.force_login(alice)
    for path in ("/api/templates/", "/api/me/settings/", "/api/favourites/", "/api/auth/token/"):
        response = client.get(path, headers={"Accept": BROWSER})
        assert response["Content-Type"] == "application/json", path
        assert b"<html" not in response.content.lower(), path


def test_the_browsable_api_is_not_a_format(client: Client, template: Template) -> None:
    response = client.get("/api/templates/?format=api")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"


def test_json_is_the_only_renderer() -> None:
    renderers: list[Any] = list(api_settings.DEFAULT_RENDERER_CLASSES)
    assert renderers == [JSONRenderer]
