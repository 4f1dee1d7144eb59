"""Bytes a reader downloads per meme, before and after the lighter copies, side
by side: prints figures, is not a test.

    .venv/bin/python bench/page_weight.py [--memes 20]

One meme per demo template (20), drawn 800 px wide by the real renderer and
stored as the site stores them (JPEG, and the WebP copies of
generation.render.variants), on a throwaway site served in this process.
Debian's Chromium (through Playwright) then opens each meme's page, whose image
sits in the feed's column exactly as a feed card's does, and the landing page,
on a phone (390 px wide at 3× pixel density) and on a desktop (1280 px at 1×),
with an empty cache each time, and counts the bytes of every meme image it
loads and which file it chose. "Before" is the same memes with no copies listed
(the page then shows the image alone, as before copies existed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import throwaway_site  # noqa: E402

# Playwright's sync API keeps an event loop in this thread, which Django takes
# for async code: the ORM between page loads is allowed here.
WORK = throwaway_site.start(LOG_LEVEL="WARNING", ALLOWED_HOSTS="127.0.0.1", DJANGO_ALLOW_ASYNC_UNSAFE="true")

from django.core.files.base import ContentFile  # noqa: E402
from django.core.files.storage import default_storage  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.db import connections  # noqa: E402
from django.utils import timezone  # noqa: E402
from PIL import Image  # noqa: E402

from feed.models import Meme, Template  # noqa: E402
from generation.layout import parse_boxes  # noqa: E402
from generation.render import encode_meme, render_key, render_meme  # noqa: E402
from generation.variants import make_variants  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
SCREENS: dict[str, dict[str, Any]] = {
    "phone 390 px, 3x": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 3,
        "is_mobile": True,
        "has_touch": True,
    },
    "desktop 1280 px, 1x": {"viewport": {"width": 1280, "height": 900}, "device_scale_factor": 1},
}
CAPTIONS = [
    ["when the code compiles", "on the first try"],
    ["one does not simply", "deploy on a friday"],
    ["writing tests after", "writing tests first"],
    ["me explaining my code", "the code"],
]


def make_memes(count: int) -> list[Meme]:
    """``count`` ready memes, one per demo template in turn, stored as the renderer stores them."""
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("load_demo", "--no-users", verbosity=0)
    templates = list(Template.objects.active().order_by("slug"))
    memes = []
    for number in range(count):
        template = templates[number % len(templates)]
        boxes = parse_boxes(template.boxes)
        texts = (CAPTIONS[number % len(CAPTIONS)] * 3)[: len(boxes)]
        with template.image.open("rb") as handle, Image.open(handle) as image:
            drawn = render_meme(image.convert("RGB"), boxes, texts, width=800).image
        key = render_key(template.image_sha256, boxes, texts, 800, "jpeg", template.mark_position)
        name = default_storage.save(f"memes/{key[:2]}/{key}.jpg", ContentFile(encode_meme(drawn, "jpeg")))
        now = timezone.now()
        memes.append(
            Meme.objects.create(
                template=template,
                texts=texts,
                status=Meme.Status.READY,
                image=name,
                width=drawn.width,
                height=drawn.height,
                ready_at=now,
                **Meme.initial_scores(now, template.like_rate),
            )
        )
    make_variants([meme.pk for meme in memes])
    return memes


def serve() -> str:
    """The site on a free loopback port, in threads of this process; returns its origin."""
    server = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler)
    server.set_app(get_wsgi_application())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def meme_bytes(browser: Any, screen: dict[str, Any], url: str, selector: str) -> list[tuple[str, int]]:
    """(file, bytes) of each meme image a fresh browser loads to show ``url`` whole."""
    context = browser.new_context(**screen)
    page = context.new_page()
    loaded: list[Any] = []
    page.on(
        "requestfinished", lambda request: loaded.append(request) if "/media/memes/" in request.url else None
    )
    page.goto(url)
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")  # lazy images load
    page.wait_for_function(
        "(s) => Array.from(document.querySelectorAll(s)).every(i => i.complete && i.naturalWidth > 0)",
        arg=selector,
    )
    page.wait_for_load_state("networkidle")
    found = [(request.url.rsplit("/", 1)[-1], request.sizes()["responseBodySize"]) for request in loaded]
    context.close()
    return found


def weigh(browser: Any, origin: str, memes: list[Meme]) -> dict[tuple[str, str], tuple[float, Counter[str]]]:
    """Mean KB per meme and the kinds of file chosen, per (screen, page)."""
    figures = {}
    for screen_name, screen in SCREENS.items():
        loads = [meme_bytes(browser, screen, f"{origin}/m/{meme.pk}/", ".meme-page img") for meme in memes]
        per_meme = [sum(size for _, size in load) for load in loads]
        figures[screen_name, "meme page"] = (
            statistics.mean(per_meme) / 1000,
            chosen([load for page in loads for load in page]),
        )
        landing = meme_bytes(browser, screen, f"{origin}/", ".landing-grid img")
        figures[screen_name, "landing page"] = (
            sum(size for _, size in landing) / len(landing) / 1000, chosen(landing)
        )  # fmt: skip
    return figures


def chosen(loads: list[tuple[str, int]]) -> Counter[str]:
    """``{"800w.webp": 20}``: the kinds of file loaded (``jpg``: the image itself)."""
    return Counter(name.split(".", 1)[1] for name, _ in loads)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memes", type=int, default=20, help="memes, one per demo template in turn")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    memes = make_memes(args.memes)
    listed = {meme.pk: Meme.objects.get(pk=meme.pk).image_variants for meme in memes}
    connections.close_all()
    origin = serve()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        after = weigh(browser, origin, memes)
        Meme.objects.update(image_variants=None)  # as before copies existed: the image alone
        before = weigh(browser, origin, memes)
        for pk, widths in listed.items():
            Meme.objects.filter(pk=pk).update(image_variants=widths)
        browser.close()

    print(f"{len(memes)} memes, 800 px wide, one per demo template; KB a meme's image costs a reader")
    print(f"{'':34} {'before':>8} {'after':>8} {'saved':>6}   files chosen after")
    for (screen, page), (kb_after, files) in after.items():
        kb_before = before[screen, page][0]
        picked = ", ".join(f"{kind} ×{count}" for kind, count in files.most_common())
        saved = 1 - kb_after / kb_before
        print(f"{screen + ', ' + page:34} {kb_before:8.1f} {kb_after:8.1f} {saved:6.0%}   {picked}")
    print(f"work folder: {WORK}")


if __name__ == "__main__":
    main()
