"""The page's "AI-made" label sits under the meme, beside its template's
name, never on the image, where it hid caption letters (on a phone, whole
words); it stays readable text with AA contrast, on a desktop and a phone, in
the feed, on a meme's own page and on the landing page."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from feed.models import Meme, UserSettings
from tests.browser.conftest import CAPTIONS, DESKTOP, PHONE, demo_templates, ready_meme, rendered
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}

# Contrast of an element's text against the first opaque background behind it (WCAG 2 formula).
CONTRAST = """(node) => {
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => {
    const linear = [r, g, b].map((c) => c / 255)
      .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  };
  let behind = node;
  while (behind && rgb(getComputedStyle(behind).backgroundColor)[3] === 0) behind = behind.parentElement;
  const back = behind ? rgb(getComputedStyle(behind).backgroundColor) : [255, 255, 255];
  const [light, dark] = [luminance(rgb(getComputedStyle(node).color)), luminance(back)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}"""


@pytest.fixture
def memes(transactional_db: None) -> list[Meme]:
    made = []
    for template in demo_templates()[:4]:
        data, size = rendered(template, CAPTIONS[template.slug])
        made.append(ready_meme(template, CAPTIONS[template.slug], data, size, f"memes/{template.slug}.jpg"))
    reader = User.objects.create_user("lena", password=PASSWORD)
    UserSettings.objects.create(user=reader, howto_seen=True)
    return made


def overlap(one: dict[str, float], other: dict[str, float]) -> float:
    """Area, in px², that two boxes share."""
    width = min(one["x"] + one["width"], other["x"] + other["width"]) - max(one["x"], other["x"])
    height = min(one["y"] + one["height"], other["y"] + other["height"]) - max(one["y"], other["y"])
    return max(width, 0) * max(height, 0)


def assert_label_beside(card: Any, template_name: str) -> None:
    badge = card.locator(".ai-badge")
    assert badge.is_visible() and badge.inner_text() == "AI-made"
    image = card.locator("img").bounding_box()
    label = badge.bounding_box()
    assert image and label
    assert overlap(image, label) == 0, "the label covers part of the meme"
    assert label["y"] >= image["y"] + image["height"], "the label is under the image"
    # On the template name's row.
    name = card.get_by_text(template_name, exact=False).first.bounding_box()
    assert name and abs((name["y"] + name["height"] / 2) - (label["y"] + label["height"] / 2)) < 12
    assert badge.evaluate(CONTRAST) >= 4.5


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_label_is_under_the_meme_in_the_feed_and_on_its_page(
    chromium: Any, live_server: Any, memes: list[Meme], viewport: str, theme: str
) -> None:
    UserSettings.objects.filter(user__username="lena").update(theme=theme)
    phone = viewport == "phone"
    context = chromium.new_context(viewport=VIEWPORTS[viewport], is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "lena")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector(".card img")
    card = page.locator(".card").first
    meme = Meme.objects.select_related("template").get(pk=int(card.get_attribute("data-id")))
    assert card.locator(".media .ai-badge").count() == 0
    assert_label_beside(card, meme.template.name)

    page.goto(f"{live_server.url}/m/{meme.pk}/")
    assert page.locator(".media .ai-badge").count() == 0
    assert_label_beside(page.locator(".meme-page"), meme.template.name)
    context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_label_is_under_each_meme_on_the_landing_page(
    chromium: Any, live_server: Any, memes: list[Meme], viewport: str
) -> None:
    phone = viewport == "phone"
    context = chromium.new_context(viewport=VIEWPORTS[viewport], is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(".landing-card img")
    first = page.locator(".landing-card").first
    first.locator("img").evaluate("(image) => image.decode()")
    name = first.locator(".template-name").inner_text()
    assert_label_beside(first, name)
    context.close()
