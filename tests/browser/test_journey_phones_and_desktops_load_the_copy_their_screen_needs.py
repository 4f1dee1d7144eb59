"""In Chromium, each screen loads the lighter WebP copy it needs, in the feed's
cards, on a meme's page and on the landing page: a phone (390 px at 3× pixel
density: 372 CSS px × 3 needs more than the 800 px there are) loads the
full-width copy, a desktop at 1× (574 CSS px in the feed, ~315 on the landing
page) the 600 px one. A copy that cannot be loaded gives way to the meme's own
image."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from PIL import Image

from feed.models import Meme, UserSettings
from generation.layout import parse_boxes
from generation.render import encode_meme, render_meme
from generation.render.variants import variant_name
from generation.variants import make_variants
from tests.browser.conftest import CAPTIONS, DESKTOP, PHONE, demo_templates, ready_meme
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

SCREENS = {
    "phone": {"viewport": PHONE, "device_scale_factor": 3, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": DESKTOP, "device_scale_factor": 1},
}
PICKED = {"phone": ".800w.webp", "desktop": ".600w.webp"}
FIRST_THREE = "(selector) => Array.from(document.querySelectorAll(selector)).slice(0, 3)"
LOADED = FIRST_THREE + ".every(i => i.complete && i.naturalWidth > 0)"
SOURCES = FIRST_THREE + ".map(i => i.currentSrc)"


@pytest.fixture
def memes_with_copies(transactional_db: None) -> list[Meme]:
    """Four memes drawn 800 px wide by the real renderer, with their copies."""
    memes = []
    for template in demo_templates()[:4]:
        with template.image.open("rb") as handle, Image.open(handle) as image:
            drawn = render_meme(image.convert("RGB"), parse_boxes(template.boxes), CAPTIONS[template.slug])
        data, size = encode_meme(drawn.image, "jpeg"), drawn.image.size
        memes.append(ready_meme(template, CAPTIONS[template.slug], data, size, f"memes/{template.slug}.jpg"))
    assert make_variants([meme.pk for meme in memes]).made == 4
    reader = User.objects.create_user("phoebe", password=PASSWORD)
    UserSettings.objects.create(user=reader, howto_seen=True)
    return memes


def open_page(chromium: Any, base: str, screen: str, path: str, sign_in: bool = True) -> Any:
    page = chromium.new_context(**SCREENS[screen]).new_page()
    if sign_in:
        page.goto(f"{base}/accounts/login/")
        page.fill("#id_username", "phoebe")
        page.fill("#id_password", PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_url(f"{base}/")
    page.goto(f"{base}{path}")
    return page


def lose_the_600w_copies(memes: list[Meme], media: Path) -> None:
    """Delete the copy a desktop loads, as a lost file would be."""
    for meme in memes:
        (media / variant_name(str(meme.image.name), 600)).unlink()


def loaded_sources(page: Any, selector: str) -> list[str]:
    page.wait_for_selector(selector)
    page.wait_for_function(LOADED, arg=selector)
    return list(page.evaluate(SOURCES, selector))


@pytest.mark.parametrize("screen", list(SCREENS))
def test_feed_cards_and_a_memes_page_load_the_copy_for_the_screen(
    chromium: Any, live_server: Any, memes_with_copies: list[Meme], screen: str
) -> None:
    page = open_page(chromium, live_server.url, screen, "/")
    sources = loaded_sources(page, ".card picture img")
    assert sources and all(source.endswith(PICKED[screen]) for source in sources), sources

    page.goto(f"{live_server.url}/m/{memes_with_copies[0].pk}/")
    [source] = loaded_sources(page, ".meme-page picture img")
    assert source.endswith(variant_name(str(memes_with_copies[0].image.name), int(PICKED[screen][1:4])))
    page.context.close()


def test_the_landing_page_loads_the_small_copy_on_a_desktop(
    chromium: Any, live_server: Any, memes_with_copies: list[Meme]
) -> None:
    page = open_page(chromium, live_server.url, "desktop", "/", sign_in=False)
    sources = loaded_sources(page, ".landing-grid picture img")
    assert len(sources) == 3 and all(source.endswith(".600w.webp") for source in sources), sources
    page.context.close()


def test_a_copy_that_cannot_be_loaded_gives_way_to_the_image(
    chromium: Any, live_server: Any, memes_with_copies: list[Meme], media_in_tmp: Path
) -> None:
    lose_the_600w_copies(memes_with_copies, media_in_tmp)
    page = open_page(chromium, live_server.url, "desktop", "/")
    sources = loaded_sources(page, ".card img")
    assert sources and all(source.endswith(".jpg") for source in sources), sources

    page.goto(f"{live_server.url}/m/{memes_with_copies[0].pk}/")
    assert loaded_sources(page, ".meme-page img")[0].endswith(str(memes_with_copies[0].image.name))
    page.context.close()


def test_a_copy_that_failed_before_the_page_script_ran_still_gives_way(
    chromium: Any, live_server: Any, memes_with_copies: list[Meme], media_in_tmp: Path
) -> None:
    lose_the_600w_copies(memes_with_copies, media_in_tmp)
    page = open_page(chromium, live_server.url, "desktop", "/")
    page.route("**/js/site*.js", hold_back)  # a slow phone: the copies fail before the script arrives
    page.goto(f"{live_server.url}/m/{memes_with_copies[0].pk}/")
    assert loaded_sources(page, ".meme-page img")[0].endswith(str(memes_with_copies[0].image.name))
    page.context.close()


def hold_back(route: Any) -> None:
    time.sleep(1.5)
    route.continue_()
