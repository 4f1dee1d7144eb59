"""On "make a meme" a reader sees the template they chose before asking; when
fewer variants come back than asked, the page says how many and why; when a
limit refuses the request, it says so in plain words with when to try again
(from the 429's Retry-After header). On a desktop and on a phone; screenshot:
docs/images/make-a-meme.png."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as site_settings
from django.contrib.auth.models import User
from django.core.cache import cache

from feed.importer import read_template_folder, save_template
from feed.models import Template, UserSettings
from generation import jobs
from memesite import limits
from tests.browser.conftest import DESKTOP, PHONE, screenshot
from tests.conftest import PASSWORD
from tests.fakes import FakeCaptionModel

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
ALL_VARIANTS_LOADED = (
    "() => Array.from(document.querySelectorAll('.make-card img'))"
    ".every((image) => image.complete && image.naturalWidth > 0)"
)
# What the stand-in model writes, so that the screenshot reads like the site.
VARIANTS = [
    ["asked the AI for four memes", "three made the cut"],
    ["found the bug", "it was a typo"],
    ["tests green", "on the first run"],
    ["deployed on a friday", "nothing broke"],
]


@dataclass
class PickyCaptionModel(FakeCaptionModel):
    """The stand-in model, with the filters turning down the last caption of each request."""

    def write(self, requests: list[Any], settings: Any, rng_seed: int | None = None) -> list[Any]:
        written = [
            replace(caption, boxes=VARIANTS[n % len(VARIANTS)][: len(caption.boxes)])
            for n, caption in enumerate(super().write(requests, settings, rng_seed))
        ]
        last = {caption.request_index: caption for caption in written}
        return [caption for caption in written if caption is not last[caption.request_index]]


@pytest.fixture
def success(transactional_db: None) -> Template:
    save_template(read_template_folder(Path(site_settings.BASE_DIR) / "demo" / "templates" / "success"))
    template = Template.objects.get(slug="success")
    reader = User.objects.create_user("maker", password=PASSWORD)
    UserSettings.objects.create(user=reader, howto_seen=True)
    return template


def make_page(chromium: Any, base: str, viewport: str = "desktop") -> Any:
    phone = viewport == "phone"
    page = chromium.new_context(viewport=VIEWPORTS[viewport], is_mobile=phone, has_touch=phone).new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "maker")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/make/")
    return page


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_choosing_a_template_shows_its_blank_image(
    chromium: Any, live_server: Any, success: Template, viewport: str
) -> None:
    page = make_page(chromium, live_server.url, viewport)
    preview = page.locator("#make-preview-image")
    assert not preview.is_visible()
    assert "Random" in page.inner_text("#make-preview")

    page.select_option("#make-template", "success")
    page.wait_for_function("() => document.getElementById('make-preview-image').naturalWidth > 0")
    assert preview.is_visible()
    assert preview.get_attribute("src") == success.image.url
    assert preview.get_attribute("alt") == "The blank Success Kid template"
    box = preview.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS[viewport]["width"]

    page.select_option("#make-template", "")
    assert not preview.is_visible()
    page.context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_fewer_variants_than_asked_are_explained(
    chromium: Any, live_server: Any, success: Template, viewport: str
) -> None:
    jobs.use_caption_model(PickyCaptionModel())
    try:
        page = make_page(chromium, live_server.url, viewport)
        page.select_option("#make-template", "success")
        page.click("#make-submit")
        page.wait_for_selector("#make-status:has-text('variants came out')", timeout=30000)
    finally:
        jobs.use_caption_model(None)
    assert page.inner_text("#make-status") == (
        "3 of 4 variants came out; the filters turned down the rest — try again or change the keywords."
    )
    images = page.locator(".make-card img")
    assert images.count() == 3
    assert sorted(images.evaluate_all("nodes => nodes.map((node) => node.alt)")) == sorted(
        " / ".join(texts) for texts in VARIANTS[:3]
    )
    if viewport == "desktop":
        page.wait_for_function(ALL_VARIANTS_LOADED)
        screenshot(page, "make-a-meme.png")
    page.context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_throttled_request_says_when_to_try_again(
    chromium: Any, live_server: Any, success: Template, caption_model: Any, settings: Any, viewport: str
) -> None:
    settings.THROTTLE_GENERATION = (
        "1/minute"  # read by the site's one limiter (memesite/limits.py) per request
    )
    cache.clear()
    page = make_page(chromium, live_server.url, viewport)
    page.click("#make-submit")
    page.wait_for_selector("#make-status:has-text('memes ready')", timeout=30000)

    with page.expect_response(lambda response: response.url.endswith("/api/make/")) as refused:
        page.click("#make-submit")
    assert refused.value.status == 429
    wait = int(refused.value.headers["retry-after"])
    page.wait_for_selector("#make-status:has-text('try again')")
    said = page.inner_text("#make-status")
    when = f"{wait} seconds" if wait < 60 else "1 minute"  # a fresh refusal waits 59-60 s
    assert said == f"You've asked for memes 1 time this minute — try again in {when}.", said
    assert "throttled" not in said
    cache.clear()
    page.context.close()


def test_the_hourly_limit_is_explained_as_the_server_says_it(
    chromium: Any, live_server: Any, success: Template, settings: Any
) -> None:
    settings.THROTTLE_GENERATION_HOURLY = "1/hour"
    limits.take("generation_hourly", limits.reader(User.objects.get(username="maker")))  # asked elsewhere
    page = make_page(chromium, live_server.url)
    with page.expect_response(lambda response: response.url.endswith("/api/make/")) as refused:
        page.click("#make-submit")
    wait = int(refused.value.headers["retry-after"])
    page.wait_for_selector("#make-status:has-text('an hour')")
    when = "1 hour" if wait >= 3600 else f"{math.ceil(wait / 60)} minutes"  # a fresh refusal waits ~3600 s
    assert page.inner_text("#make-status") == f"You can make 1 meme an hour — try again in {when}."
    page.context.close()
