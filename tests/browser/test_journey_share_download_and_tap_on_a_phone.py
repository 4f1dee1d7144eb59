"""Sharing and phones, in Chromium: "Share" opens the device's share sheet
(Web Share API) or, where there is none, copies the link and says "Link
copied"; downloads are named after the template and the meme; the settings
panel fits a 390 px screen; every tap target is at least 24 px (the card's
controls 44 px); counts keep AA contrast in both themes. Screenshot:
docs/images/feed-phone.png."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.auth.models import User

from feed.models import Meme, UserSettings
from tests.browser.conftest import (
    CAPTIONS,
    DESKTOP,
    PHONE,
    demo_templates,
    ready_meme,
    rendered,
    screenshot,
)
from tests.browser.test_journey_ai_label_sits_beside_the_meme_not_on_it import CONTRAST
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}

# The Web Share API as a phone has it, recording what was shared (installed
# through the DevTools protocol, so the page's CSP still holds).
SHARE_SHEET = "navigator.share = async (data) => { window.__shared = data; };"
NO_SHARE_SHEET = "delete Navigator.prototype.share; delete navigator.share;"

# Every visible control a finger can hit, with its size; links inside running
# text are left out, as WCAG 2.5.8 leaves them out.
TAP_TARGETS = """() => Array.from(document.querySelectorAll('a[href], button, summary, select, input, label'))
  .filter((node) => node.offsetParent !== null && getComputedStyle(node).visibility !== 'hidden')
  .filter((node) => node.localName === 'summary' || !node.closest('details:not([open])'))
  .filter((node) => !(node.localName === 'a' && node.closest('p, li:not(.card)')))
  .filter((node) => !node.classList.contains('skip-link'))
  .filter((node) => !(node.localName === 'input' && ['radio', 'checkbox', 'hidden'].includes(node.type)))
  .filter((node) => !(node.localName === 'label' && !node.querySelector('input')))
  .map((node) => {
    const box = node.getBoundingClientRect();
    return { what: node.outerHTML.slice(0, 80), width: box.width, height: box.height };
  })"""


@pytest.fixture
def feed_of_memes(transactional_db: None) -> list[Meme]:
    templates = demo_templates()
    images = {template.slug: rendered(template, CAPTIONS[template.slug]) for template in templates}
    memes = []
    for _, template in zip(range(12), itertools.cycle(templates), strict=False):
        data, size = images[template.slug]
        memes.append(ready_meme(template, CAPTIONS[template.slug], data, size, f"memes/{template.slug}.jpg"))
    reader = User.objects.create_user("phoebe", password=PASSWORD)
    UserSettings.objects.create(user=reader, howto_seen=True)
    return memes


def signed_in(chromium: Any, base: str, viewport: str = "phone", **options: Any) -> Any:
    phone = viewport == "phone"
    context = chromium.new_context(viewport=VIEWPORTS[viewport], is_mobile=phone, has_touch=phone, **options)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "phoebe")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector(".card img")
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('.card img')).slice(0, 2)"
        ".every(i => i.complete && i.naturalWidth > 0)"
    )
    return page


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.usefixtures("feed_of_memes")
def test_share_opens_the_share_sheet_where_there_is_one(
    chromium: Any, live_server: Any, viewport: str
) -> None:
    page = signed_in(chromium, live_server.url, viewport)
    page.context.add_init_script(SHARE_SHEET)
    page.reload()
    page.wait_for_selector(".card .share")
    card = page.locator(".card").first
    if viewport == "phone":
        card.locator(".share").tap()
    else:
        card.locator(".share").click()
    page.wait_for_function("() => window.__shared !== undefined")
    shared = page.evaluate("() => window.__shared")
    assert shared["url"] == f"{live_server.url}/m/{card.get_attribute('data-id')}/"
    assert page.url == f"{live_server.url}/", "the link was not followed"
    page.context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.usefixtures("feed_of_memes")
def test_share_copies_the_link_where_there_is_no_share_sheet(
    chromium: Any, live_server: Any, viewport: str
) -> None:
    page = signed_in(chromium, live_server.url, viewport)
    page.context.add_init_script(NO_SHARE_SHEET)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.reload()
    page.wait_for_selector(".card .share")
    assert page.evaluate("() => 'share' in navigator") is False
    card = page.locator(".card").first
    card.locator(".share").click()
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert toast.inner_text() == "Link copied"
    meme_url = f"{live_server.url}/m/{card.get_attribute('data-id')}/"
    assert page.evaluate("() => navigator.clipboard.readText()") == meme_url

    # A visitor on the meme's own page shares it the same way.
    page.context.clear_cookies()
    page.goto(meme_url)
    page.evaluate("() => navigator.clipboard.writeText('')")
    page.locator(".meme-page .share").click()
    page.wait_for_function("() => document.getElementById('toast').textContent === 'Link copied'")
    assert page.evaluate("() => navigator.clipboard.readText()") == meme_url
    page.context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_downloads_are_named_after_the_template_and_the_meme(
    chromium: Any, live_server: Any, feed_of_memes: list[Meme], viewport: str
) -> None:
    """The name is the link's download attribute. (The test server's media
    handler adds a Content-Disposition header naming the file, which browsers
    put first; media servers, and the site's development media view, send none:
    tests/feed/test_media_goes_out_without_a_file_name.py.)"""
    page = signed_in(chromium, live_server.url, viewport)
    card = page.locator(".card").first
    meme = Meme.objects.select_related("template").get(pk=int(card.get_attribute("data-id")))
    expected = f"{meme.template.slug}-{meme.pk}.jpg"
    download = card.locator(".download")
    assert download.get_attribute("download") == expected
    assert download.get_attribute("href") == f"{live_server.url}{meme.image.url}"

    page.goto(f"{live_server.url}/m/{meme.pk}/")
    assert page.locator(".meme-page .download").get_attribute("download") == expected
    page.context.clear_cookies()
    page.reload()
    assert page.locator(".meme-page .download").get_attribute("download") == expected
    page.context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.usefixtures("feed_of_memes")
def test_the_settings_panel_fits_the_screen(chromium: Any, live_server: Any, viewport: str) -> None:
    page = signed_in(chromium, live_server.url, viewport)
    page.click("#settings-menu summary")
    panel = page.locator(".settings-panel")
    panel.wait_for(state="visible")
    box = panel.bounding_box()
    width = VIEWPORTS[viewport]["width"]
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    button = page.locator("#settings-menu summary").bounding_box()
    assert button and box["y"] >= button["y"] + button["height"], "the panel hangs below its button"
    page.context.close()


def too_small(page: Any, path: str) -> list[dict[str, Any]]:
    """Tap targets under 24 × 24 px on the page (WCAG 2.5.8)."""
    targets = page.evaluate(TAP_TARGETS)
    return [{**target, "page": path} for target in targets if min(target["width"], target["height"]) < 24]


@pytest.mark.usefixtures("feed_of_memes")
def test_every_tap_target_is_big_enough(chromium: Any, live_server: Any, feed_of_memes: list[Meme]) -> None:
    page = signed_in(chromium, live_server.url)
    page.click("#settings-menu summary")
    small = too_small(page, "/ with the settings open")
    meme = feed_of_memes[0]
    for path in ("/", f"/m/{meme.pk}/", "/make/", "/favourites/"):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        if path == "/":
            page.wait_for_selector(".card img")
            cards = page.locator(".card a, .card button").evaluate_all(
                "nodes => nodes.map(n => n.getBoundingClientRect().height)"
            )
            assert cards and min(cards) >= 44, cards
        small += too_small(page, path)
    page.context.clear_cookies()
    for path in ("/", f"/m/{meme.pk}/", "/accounts/login/", "/accounts/signup/"):
        page.goto(f"{live_server.url}{path}")
        small += too_small(page, path)
    assert small == []
    page.context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.usefixtures("feed_of_memes")
def test_counts_keep_aa_contrast(chromium: Any, live_server: Any, theme: str) -> None:
    UserSettings.objects.filter(user__username="phoebe").update(theme=theme)
    page = signed_in(chromium, live_server.url)
    card = page.locator(".card").first
    for action in ("like", "dislike", "favourite"):
        with page.expect_response(lambda response: response.ok and "/api/memes/" in response.url):
            card.locator(f'[data-action="{action}"]').click()
    pressed = card.locator('[aria-pressed="true"]')
    assert pressed.count() == 2  # a dislike replaces the like
    ratios = {
        text: node.evaluate(CONTRAST)
        for node in card.locator(".actions .count, .actions .report, .card-meta a, .card-meta span").all()
        if (text := node.inner_text())
    }
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(".card img")
    card = page.locator(".card").first
    with page.expect_response(lambda response: response.ok and "/reaction/" in response.url):
        card.locator('[data-action="like"]').click()
    like = card.locator('[data-action="like"] .count')
    ratios["pressed like"] = like.evaluate(CONTRAST)
    assert {text: ratio for text, ratio in ratios.items() if ratio < 4.5} == {}
    page.context.close()


@pytest.mark.usefixtures("feed_of_memes")
def test_the_feed_on_a_phone_for_the_readme(chromium: Any, live_server: Any) -> None:
    page = signed_in(chromium, live_server.url, color_scheme="light")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "feed-phone.png")
    page.context.close()
