"""With the keyboard alone a reader moves between memes and likes one; when
the server refuses a reaction (the meme was hidden meanwhile) the count goes
back and the reader is told why."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from feed.models import Meme, Reaction, Template, UserSettings
from tests.browser.conftest import DESKTOP, attach_feed, ready_meme
from tests.conftest import PASSWORD, make_template
from tests.feed_data import picture

pytestmark = pytest.mark.browser


@pytest.fixture
def a_few_memes(transactional_db: None) -> Template:
    template = make_template("few")
    data = picture(600, 400, "steelblue", "meme")
    for number in range(12):
        ready_meme(template, [f"meme {number}", "bottom"], data, (600, 400), "memes/few.jpg")
    reader = User.objects.create_user("keys", password=PASSWORD)
    UserSettings.objects.create(user=reader, howto_seen=True)
    return template


def signed_in_page(chromium: Any, base: str) -> Any:
    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "keys")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector(".card")
    attach_feed(page)
    return page


@pytest.mark.usefixtures("a_few_memes")
def test_j_and_l_like_the_second_meme(chromium: Any, live_server: Any) -> None:
    page = signed_in_page(chromium, live_server.url)
    page.keyboard.press("j")
    page.keyboard.press("j")
    focused = page.evaluate("() => Number(document.activeElement.dataset.id)")
    assert focused == page.evaluate("() => window.feed.order[1]")
    with page.expect_response(lambda response: "/reaction/" in response.url and response.ok):
        page.keyboard.press("l")
    assert Reaction.objects.filter(meme_id=focused, user__username="keys", value=1).exists()
    page.context.close()


@pytest.mark.usefixtures("a_few_memes")
def test_a_refused_like_rolls_back_with_a_message(chromium: Any, live_server: Any) -> None:
    page = signed_in_page(chromium, live_server.url)
    card = page.locator(".card").first
    meme_id = int(card.get_attribute("data-id"))
    Meme.objects.get(pk=meme_id).hide()
    with page.expect_response(lambda response: "/reaction/" in response.url and response.status == 404):
        card.locator('[data-action="like"]').click()
    page.wait_for_function("() => !document.getElementById('toast').hidden")
    assert card.locator('[data-count="likes"]').text_content() == "0"
    assert card.locator('[data-action="like"]').get_attribute("aria-pressed") == "false"
    assert "no such meme" in page.locator("#toast").text_content()
    page.context.close()
