"""A new reader's journey in Chromium: sign up → the how-to panel once → the
feed shows memes → scrolling loads more without duplicates → double-click
likes → favourite → the favourites page shows it → the theme survives signing
out and in. Screenshots of the real pages go to docs/images for the README."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.auth.models import User

from feed.models import Favourite, Reaction
from tests.browser.conftest import (
    CAPTIONS,
    DESKTOP,
    PHONE,
    attach_feed,
    demo_templates,
    ready_meme,
    rendered,
    screenshot,
)
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

MEMES = 60


@pytest.fixture
def feed_of_memes(transactional_db: None) -> None:
    templates = demo_templates()
    images = {}
    for template in templates:
        images[template.slug] = rendered(template, CAPTIONS[template.slug])
    # Interleave templates, rendered once each and shared by several memes.
    for number, template in zip(range(MEMES), itertools.cycle(templates), strict=False):
        data, size = images[template.slug]
        texts = CAPTIONS[template.slug]
        ready_meme(template, texts, data, size, f"memes/{template.slug}.jpg")
        del number


def feed_ready(page: Any) -> None:
    page.wait_for_selector(".card img")
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('.card img')).slice(0, 2)"
        ".every(i => i.complete && i.naturalWidth > 0)"
    )


def sign_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base}/")


@pytest.mark.usefixtures("feed_of_memes")
def test_a_new_readers_journey(chromium: Any, live_server: Any) -> None:
    base = live_server.url
    context = chromium.new_context(viewport=DESKTOP, color_scheme="light")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)

    # Sign up: straight into the feed, with the how-to panel.
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", "dora")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base}/")
    assert page.locator("#howto").is_visible()
    feed_ready(page)
    attach_feed(page)
    screenshot(page, "feed-howto.png")
    page.click("#howto-close")
    assert not page.locator("#howto").is_visible()
    assert page.locator(".card .ai-badge").first.text_content() == "AI-made"
    alts = page.locator(".card img").evaluate_all("images => images.map(i => i.alt)")
    assert " / ".join(CAPTIONS["drake"]) in alts

    # Scrolling loads more, without duplicates, asking 5-10 cards before the end.
    page.mouse.move(640, 450)
    while page.evaluate("() => window.feed.order.length") < 20:
        page.mouse.wheel(0, 250)
        page.wait_for_timeout(60)
    asked_at = page.evaluate("() => window.feed.stats.leftAtRequest")
    assert asked_at and all(5 <= left <= 10 for left in asked_at), asked_at
    for _ in range(40):
        if page.evaluate("() => window.feed.order.length") >= 40:
            break
        page.mouse.wheel(0, 3000)
        page.wait_for_timeout(150)
    order = page.evaluate("window.feed.order")
    assert len(order) >= 40 and len(order) == len(set(order))
    assert page.evaluate("window.feed.stats.duplicates") == 0

    # Double-click the image to like it: the count moves at once and a heart pops.
    page.evaluate("window.scrollTo(0, 0)")
    # Scrolling back up puts the unloaded cards back, the first one first.
    page.wait_for_function("() => document.querySelector('.card').dataset.id == window.feed.order[0]")
    meme_id = order[0]
    card = page.locator(f'.card[data-id="{meme_id}"]')
    with page.expect_response(lambda response: "/reaction/" in response.url and response.ok):
        card.locator(".media").dblclick()
        assert card.locator(".heart").count() == 1
    assert card.locator('[data-action="like"]').get_attribute("aria-pressed") == "true"
    assert card.locator('[data-count="likes"]').text_content() == "1"
    assert Reaction.objects.filter(user__username="dora", meme_id=meme_id, value=1).exists()

    # Favourite it; the favourites page shows it.
    with page.expect_response(lambda response: "/favourite/" in response.url and response.ok):
        card.locator('[data-action="favourite"]').click()
    assert Favourite.objects.filter(user__username="dora", meme_id=meme_id).exists()
    screenshot(page, "feed-desktop-light.png")
    page.goto(f"{base}/favourites/")
    page.wait_for_selector(".card")
    shown = page.locator(".card").evaluate_all("cards => cards.map(c => Number(c.dataset.id))")
    assert shown == [meme_id]

    # Dark theme, chosen in the settings menu, survives signing out and in.
    page.goto(f"{base}/")
    feed_ready(page)
    page.click("#settings-menu summary")
    with page.expect_response(lambda response: "/api/me/settings/" in response.url and response.ok):
        page.check('input[name="theme"][value="dark"]')
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.click(".sign-out button")
    page.wait_for_url(f"{base}/accounts/login/")
    sign_in(page, base, "dora")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert not page.locator("#howto").is_visible()  # first visit only
    feed_ready(page)
    screenshot(page, "feed-desktop-dark.png")
    assert errors == []
    context.close()


@pytest.mark.usefixtures("feed_of_memes")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_feed_fits_a_phone(chromium: Any, live_server: Any, theme: str) -> None:
    User.objects.create_user("phoebe", password=PASSWORD)
    from feed.models import UserSettings

    UserSettings.objects.create(user=User.objects.get(username="phoebe"), theme=theme, howto_seen=True)
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    sign_in(page, live_server.url, "phoebe")
    feed_ready(page)
    widest = page.evaluate("document.documentElement.scrollWidth")
    assert widest <= PHONE["width"], "nothing sticks out sideways on a phone"
    first = page.locator(".card").first
    box = first.locator(".media").bounding_box()
    assert box is not None
    # Double-tap likes on a touch screen.
    with page.expect_response(lambda response: "/reaction/" in response.url and response.ok):
        first.locator(".media").tap()
        first.locator(".media").tap()
    assert first.locator('[data-action="like"]').get_attribute("aria-pressed") == "true"
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(800)  # let the heart fade for the picture
    screenshot(page, f"feed-phone-{theme}.png")
    context.close()
