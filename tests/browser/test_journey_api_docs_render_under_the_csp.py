"""The interactive API docs (Swagger UI, served from our own static files)
render in Chromium under the site's content security policy."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_swagger_ui_lists_the_feed_endpoints(chromium: Any, live_server: Any) -> None:
    page = chromium.new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda message: violations.append(message.text) if "Content Security" in message.text else None,
    )
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector("text=/api/feed/", timeout=20_000)
    assert page.locator("text=/api/memes/{meme_id}/reaction/").count() >= 1
    assert violations == []
    page.close()
