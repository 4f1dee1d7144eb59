"""Scroll through 500 memes in Chromium: every one arrives once, the page
never holds more than 1,400 DOM nodes (cards far above are unloaded and a
spacer keeps their height), images lazy-load into reserved space so nothing
jumps, and scrolling back to the top brings the first memes back."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from feed.models import Template
from tests.browser.conftest import DESKTOP, attach_feed, ready_meme
from tests.conftest import PASSWORD, make_template
from tests.feed_data import picture

pytestmark = pytest.mark.browser

TARGET = 500
MAX_NODES = 1400
COLOURS = ("steelblue", "seagreen", "indianred", "darkorange", "slateblue", "teal", "sienna", "olive")

# Cumulative layout shift, summed as browsers report it (shifts right after
# input excluded). Installed through the DevTools protocol, not the page, so
# the site's CSP (no inline script) still holds for everything else.
LAYOUT_SHIFT_PROBE = """
window.__shift = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
}).observe({ type: "layout-shift", buffered: true });
"""

COUNT_NODES = """() => {
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
  let nodes = 1;
  while (walker.nextNode()) nodes += 1;
  return { nodes, elements: document.getElementsByTagName("*").length,
           cards: document.querySelectorAll(".card").length };
}"""


@pytest.fixture
def many_memes(transactional_db: None, settings: Any) -> Template:
    settings.THROTTLE_FEED_MEMES = "100000/minute"  # this reader scrolls far faster than a person
    template = make_template("many")
    for number in range(TARGET + 20):
        colour = COLOURS[number % len(COLOURS)]
        size = (600, 400 + 50 * (number % 5))  # differing heights, all reserved before loading
        data = picture(*size, colour, f"meme {number}")
        name = f"memes/{colour}-{size[1]}.jpg"
        ready_meme(template, [f"meme number {number}", "bottom text"], data, size, name)
    return template


@pytest.mark.usefixtures("many_memes")
def test_five_hundred_memes_keep_the_page_light(chromium: Any, live_server: Any) -> None:
    User.objects.create_user("scroller", password=PASSWORD)
    context = chromium.new_context(viewport=DESKTOP)
    context.add_init_script(LAYOUT_SHIFT_PROBE)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "scroller")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector(".card img")
    attach_feed(page)

    images = page.locator(".card img").evaluate_all(
        "images => images.map(i => [i.loading, i.getAttribute('width'), i.getAttribute('height')])"
    )
    assert all(loading == "lazy" and width and height for loading, width, height in images)

    most = {"nodes": 0, "elements": 0, "cards": 0}
    loaded = page.evaluate("() => window.feed.order.length")
    while loaded < TARGET:
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_function(f"() => window.feed.order.length > {loaded}")
        loaded = page.evaluate("() => window.feed.order.length")
        counts = page.evaluate(COUNT_NODES)
        most = {key: max(most[key], counts[key]) for key in most}

    order = page.evaluate("() => window.feed.order")
    assert len(order) >= TARGET and len(set(order)) == len(order)
    assert most["nodes"] < MAX_NODES, most
    assert page.evaluate("() => window.__shift") < 0.01

    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => document.querySelector('.card').dataset.id == window.feed.order[0]")
    assert page.evaluate(COUNT_NODES)["nodes"] < MAX_NODES
    print(f"\nmost DOM nodes while scrolling {len(order)} memes: {most}")
    context.close()
