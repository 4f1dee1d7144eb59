"""A reader who has reached the end of the feed, in Chromium: the page says
the AI is making more and asks again with back-off (2, 4, 8 s …), not each
time the page settles. Before, a fast reader at the end asked ~6.7 times a
second (430 of 507 requests empty)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import User

from feed.models import UserSettings
from tests.browser.conftest import CAPTIONS, DESKTOP, demo_templates, ready_meme, rendered
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


@pytest.fixture
def reader(transactional_db: None) -> User:
    template = next(template for template in demo_templates() if template.slug == "drake")
    data, size = rendered(template, CAPTIONS["drake"])
    for number in range(6):
        ready_meme(template, CAPTIONS["drake"], data, size, f"memes/drake-{number}.jpg")
    phoebe = User.objects.create_user("phoebe", password=PASSWORD)
    UserSettings.objects.create(user=phoebe, howto_seen=True)
    return phoebe


def test_at_the_end_the_page_asks_again_at_most_every_few_seconds(
    chromium: Any, live_server: Any, reader: User
) -> None:
    page = chromium.new_context(viewport=DESKTOP).new_page()
    asked: list[float] = []
    page.on(
        "request", lambda request: asked.append(time.monotonic()) if "/api/feed/" in request.url else None
    )
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "phoebe")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector(".card")
    # A function, not an expression: the page's CSP (script-src 'self') forbids evaluating strings.
    page.wait_for_function("() => document.getElementById('feed-status').textContent.includes('seen every')")
    at_the_end = time.monotonic()
    for _ in range(16):  # the reader keeps scrolling at the end for 8 s
        page.mouse.wheel(0, 600)
        page.wait_for_timeout(500)
    later = [moment for moment in asked if moment > at_the_end]
    assert len(later) <= 3, f"{len(later)} requests in 8 s at the end of the feed"
    assert len(asked) >= 2  # the first page and the empty one
