"""A visitor who is not signed in opens ``/`` in Chromium, on a desktop and on a
phone: the page says what memesite is, shows some of its best memes (real
rendered demo memes), each opening its public page, and leads to sign-up.
With no memes yet it says so. Screenshots: docs/images/landing-*.png."""

from __future__ import annotations

import re
from typing import Any

import pytest

from feed.models import Meme
from feed.ranking.scores import rating_of
from tests.browser.conftest import CAPTIONS, DESKTOP, PHONE, demo_templates, ready_meme, rendered, screenshot

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture
def rated_memes(transactional_db: None) -> list[Meme]:
    """One rendered meme per demo template, each liked a different number of times."""
    memes = []
    for likes, template in enumerate(demo_templates()):
        data, size = rendered(template, CAPTIONS[template.slug])
        meme = ready_meme(template, CAPTIONS[template.slug], data, size, f"memes/{template.slug}.jpg")
        Meme.objects.filter(pk=meme.pk).update(likes=likes, rating=rating_of(likes, 0, meme.prior))
        memes.append(meme)
    return memes


def visit(chromium: Any, base: str, viewport: str) -> tuple[Any, list[str]]:
    phone = viewport == "phone"
    context = chromium.new_context(
        viewport=VIEWPORTS[viewport], is_mobile=phone, has_touch=phone, color_scheme="light"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(f"{base}/")
    return page, errors


def all_images_loaded(page: Any) -> None:
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")  # lazy images load
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('.landing-grid img'))"
        ".every(i => i.complete && i.naturalWidth > 0)"
    )
    page.evaluate("() => window.scrollTo(0, 0)")


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_visitor_sees_what_the_site_is_its_best_memes_and_the_way_in(
    chromium: Any, live_server: Any, rated_memes: list[Meme], viewport: str
) -> None:
    page, errors = visit(chromium, live_server.url, viewport)
    size = VIEWPORTS[viewport]

    assert "An endless feed of memes, written by an AI" in page.inner_text("h1")
    assert "learns" in page.inner_text(".landing-hero")
    for name in ("Sign up", "Sign in"):
        button = page.locator(".landing-actions").get_by_role("link", name=name)
        box = button.bounding_box()
        assert box and box["y"] + box["height"] <= size["height"], f"{name} is above the fold"
        assert box["height"] >= 44

    cards = page.locator(".landing-card")
    assert 6 <= cards.count() <= 9
    all_images_loaded(page)
    links = page.locator(".landing-link").evaluate_all("links => links.map(l => l.getAttribute('href'))")
    assert all(re.fullmatch(r"/m/\d+/", link) for link in links)
    best = rated_memes[-1]  # the most liked
    assert links[0] == f"/m/{best.pk}/"
    widest = page.evaluate("document.documentElement.scrollWidth")
    assert widest <= size["width"], "nothing sticks out sideways"
    screenshot(page, f"landing-{viewport}.png")

    page.locator(".landing-link").first.click()
    page.wait_for_url(f"{live_server.url}/m/{best.pk}/")
    assert page.locator(".meme-page .ai-badge").inner_text() == "AI-made"
    page.go_back()
    page.locator(".landing-actions").get_by_role("link", name="Sign up").click()
    page.wait_for_url(f"{live_server.url}/accounts/signup/")
    assert errors == []
    page.context.close()


def test_with_no_memes_yet_a_visitor_reads_a_friendly_line(
    chromium: Any, live_server: Any, transactional_db: None
) -> None:
    page, errors = visit(chromium, live_server.url, "phone")
    assert "No memes yet" in page.inner_text(".landing-best")
    assert page.locator(".landing-actions a").count() == 2
    assert errors == []
    page.context.close()
