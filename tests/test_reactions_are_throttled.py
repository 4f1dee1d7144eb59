"""Reactions have their own rate limit (DRF scope "reactions")."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from feed.models import Template
from tests.conftest import make_meme


@pytest.fixture
def three_a_minute(monkeypatch: pytest.MonkeyPatch, db: None) -> None:
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "reactions": "3/minute"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    cache.clear()


@pytest.mark.usefixtures("three_a_minute")
def test_the_fourth_reaction_in_a_minute_waits(client: Client, alice: User, template: Template) -> None:
    meme = make_meme(template)
    client.force_login(alice)
    codes = [
        client.put(
            f"/api/memes/{meme.pk}/reaction/", {"value": value}, content_type="application/json"
        ).status_code
        for value in (1, -1, 1, -1)
    ]
    assert codes == [200, 200, 200, 429]
    cache.clear()
