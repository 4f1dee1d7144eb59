"""A reader asks for memes on the "make a meme" page and sees each variant
appear without reloading the page (the pipeline runs inline, with a stand-in
caption model and the real renderer)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from feed.models import Meme, UserSettings
from generation.models import GenerationJob
from tests.browser.conftest import DESKTOP
from tests.conftest import PASSWORD, make_template

pytestmark = pytest.mark.browser


def test_the_variants_appear_on_the_page(
    chromium: Any, live_server: Any, transactional_db: None, caption_model: Any
) -> None:
    make_template("success", name="Success Kid")
    reader = User.objects.create_user("maker", password=PASSWORD)
    UserSettings.objects.create(user=reader, howto_seen=True)
    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "maker")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector(".card, .feed-empty, main")

    page.goto(f"{live_server.url}/make/")
    page.select_option("#make-template", "success")
    page.fill("#make-keywords", "monday, coffee")
    page.click("#make-submit")
    page.locator(".make-card img").nth(3).wait_for(timeout=30000)

    assert "4 memes ready" in page.inner_text("#make-status")
    assert GenerationJob.objects.get().keywords == ["monday", "coffee"]
    alts = [image.get_attribute("alt") for image in page.locator(".make-card img").all()]
    assert sorted(alts) == sorted(meme.caption for meme in Meme.objects.all())


def test_a_bad_request_is_explained_on_the_page(
    chromium: Any, live_server: Any, transactional_db: None, caption_model: Any
) -> None:
    make_template("success", name="Success Kid")
    User.objects.create_user("maker", password=PASSWORD)
    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "maker")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.goto(f"{live_server.url}/make/")

    page.fill("#make-keywords", "one, two, three, four")
    page.click("#make-submit")
    page.wait_for_selector("#make-status:has-text('keywords')")

    assert "at most 3" in page.inner_text("#make-status")
    assert not GenerationJob.objects.exists()
