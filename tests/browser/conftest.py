"""Chromium from Debian driven by Playwright, and memes with real images.

Playwright's own browser download does not work here, so the tests launch
/usr/bin/chromium and skip (saying why) where it is missing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone

from feed import api
from feed.models import Meme, Template
from tests.feed_data import picture

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "images"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

# A few captions for the demo templates, for screenshots that look like the site.
CAPTIONS = {
    "drake": ["writing meme captions by hand", "letting the AI write them"],
    "success": ["scrolled five hundred memes", "page still light"],
    "rollsafe": ["can't repeat a meme", "if every reader has a snapshot"],
    "buzz": ["tied scores", "tied scores everywhere"],
    "harold": ["when the model is 90% sure", "and the meme still flops"],
    "morpheus": ["what if I told you", "the feed never ends"],
    "grumpycat": ["double-tap to like", "no"],
    "wonka": ["oh, you paginate with offset?", "tell me again about page 4,000"],
    "facepalm": ["DRF cursor pagination", "on three thousand tied scores"],
    "yuno": ["y u no", "use a row-value keyset"],
}


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One browser per test module. Playwright's sync API keeps an event loop in
    this thread while it runs, which Django takes for async code: the ORM is
    allowed beside it for this module only, and the loop ends with the module."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium (Playwright's download is unavailable)")
    from playwright.sync_api import sync_playwright

    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture(autouse=True)
def supply_asked(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Generation stays out of browser tests: running low is only recorded."""
    asked: list[Any] = []
    monkeypatch.setattr(api, "reader_is_running_low", lambda user, template: asked.append(template))
    return asked


def demo_templates() -> list[Template]:
    from feed.importer import import_templates

    import_templates(Path(settings.BASE_DIR) / "demo" / "templates")
    return list(Template.objects.filter(slug__in=CAPTIONS))


def rendered(template: Template, texts: list[str]) -> tuple[bytes, tuple[int, int]]:
    """The meme as the site's renderer draws it; a plain picture if it cannot."""
    try:
        from PIL import Image

        from generation.layout import parse_boxes
        from generation.render import encode_meme, render_meme

        with template.image.open("rb") as handle:
            image = Image.open(handle).convert("RGB")
            image.load()
        result = render_meme(image, parse_boxes(template.boxes), texts, width=600)
        return encode_meme(result.image, "jpeg"), result.image.size
    except Exception:  # the renderer is another team's work in progress
        return picture(600, 450, "steelblue", " / ".join(texts)), (600, 450)


def ready_meme(template: Template, texts: list[str], data: bytes, size: tuple[int, int], name: str) -> Meme:
    if not default_storage.exists(name):
        default_storage.save(name, ContentFile(data))
    now = timezone.now()
    return Meme.objects.create(
        template=template,
        texts=texts,
        status=Meme.Status.READY,
        image=name,
        width=size[0],
        height=size[1],
        ready_at=now,
        **Meme.initial_scores(now, template.like_rate),
    )


def attach_feed(page: Any) -> None:
    """Put the page's own feed.js module at ``window.feed`` for the test's
    expressions (``feed.order``, ``feed.stats``): the site itself sets no
    globals, and importing the module's URL again yields the page's instance."""
    page.evaluate(
        "async () => { window.feed = await import("
        "document.querySelector('script[type=module][src*=\"/js/feed\"]').src); }"
    )


def screenshot(page: Any, name: str) -> None:
    """Every run takes the picture; MEMESITE_SCREENSHOTS=1 keeps it in docs/images
    for the README (otherwise each test run would rewrite tracked files)."""
    picture = page.screenshot()
    if os.environ.get("MEMESITE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS / name).write_bytes(picture)
