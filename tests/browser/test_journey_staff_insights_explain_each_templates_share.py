"""/insights/ in Chromium, on a desktop and on a phone: a staff member sees
every active template's share of new memes, what each figure means and, per
template, why its share is what it is; the template readers liked gets a
larger share than one without votes and one they disliked. On a phone the
table scrolls sideways in its own box, not the page. A reader is turned
away from the page and its API, and is not shown the link. Screenshot:
docs/images/insights.png."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Reaction, Template
from generation import steering
from generation.models import GenerationJob
from tests.browser.conftest import DESKTOP, PHONE, demo_templates, screenshot
from tests.conftest import make_meme

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
LIKED, DISLIKED, UNVOTED = "drake", "grumpycat", "buzz"
TABLE_UNDER_THE_HEADER = (
    "() => window.scrollBy(0, document.querySelector('.insights-table').getBoundingClientRect().top - 80)"
)


@pytest.fixture
def loop(transactional_db: None, alice: User, bob: User, charlie: User) -> dict[str, Template]:
    """The demo templates; Drakeposting liked by all three readers on two memes,
    Grumpy Cat disliked by all three, the rest without votes. The new memes are
    the stock top-up's jobs for the targets these votes give (made here as rows:
    no worker runs) and one reader running low on Drakeposting."""
    templates = {template.slug: template for template in demo_templates()}
    for slug, value, memes in ((LIKED, Reaction.LIKE, 2), (DISLIKED, Reaction.DISLIKE, 1)):
        for _ in range(memes):
            meme = make_meme(templates[slug])
            for voter in (alice, bob, charlie):
                Reaction.objects.create(user=voter, meme=meme, value=value)
    targets = steering.stock_targets(steering.template_votes())
    for template in Template.objects.active():
        GenerationJob.objects.create(template=template, count=targets[template.pk], reason="stock")
    GenerationJob.objects.create(template=templates[LIKED], count=64, reason="feed")
    return templates


def signed_in_page(chromium: Any, base: str, user: User, viewport: str) -> Any:
    phone = viewport == "phone"
    context = chromium.new_context(
        viewport=VIEWPORTS[viewport], is_mobile=phone, has_touch=phone, color_scheme="light", base_url=base
    )
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])
    return context.new_page()


def share_of_new_memes(page: Any) -> dict[str, int]:
    """Each template's share of new memes in percent, as the table shows it, by name."""
    rows = page.locator(".insights-table tbody tr:not(.insights-why)").all()
    shares = {}
    for row in rows:
        figure = row.locator("td >> nth=2").locator(".figure").inner_text()
        match = re.match(r"(\d+)% \(\d+\)", figure)
        assert match, figure
        shares[row.locator("th").inner_text()] = int(match.group(1))
    return shares


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_staff_see_each_templates_share_and_why(
    chromium: Any, live_server: Any, staff: User, loop: dict[str, Template], viewport: str
) -> None:
    page = signed_in_page(chromium, live_server.url, staff, viewport)
    page.goto("/")
    page.locator("a[href='/insights/']").first.click()
    page.wait_for_url("**/insights/")

    explained = page.inner_text(".insights-explained")
    assert "More likes raise a template's chance" in explained
    assert "So a liked template's share rises with its chance" in explained
    shares = share_of_new_memes(page)
    names = {template.slug: template.name for template in Template.objects.active()}
    assert set(shares) == set(names.values()), "every active template has a row"
    assert sum(shares.values()) == pytest.approx(100, abs=len(shares))  # each share is rounded
    assert shares[names[LIKED]] > shares[names[UNVOTED]] > shares[names[DISLIKED]]

    why = page.locator(".insights-why td").all_inner_texts()
    assert len(why) == len(names)
    assert any(line.startswith("Why: Liked in 6 of 6 votes (100%), above the 50%") for line in why)
    assert any(line.startswith("Why: Liked in 0 of 3 votes (0%), below the 50%") for line in why)
    assert sum(line.startswith("Why: No votes yet") for line in why) == len(names) - 2

    width = VIEWPORTS[viewport]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page does not scroll sideways"
    table = page.locator(".insights-scroll").bounding_box()
    assert table and table["x"] >= 0 and table["x"] + table["width"] <= width, "the table scrolls in its box"
    fits = page.locator(".insights-scroll").evaluate("box => box.scrollWidth <= box.clientWidth")
    assert fits == (viewport == "desktop"), "a desktop shows the whole table"
    if viewport == "desktop":
        # The table just under the site's header (about 60 px): the figures, not the lede, in the picture.
        page.evaluate(TABLE_UNDER_THE_HEADER)
        screenshot(page, "insights.png")
    page.context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_reader_is_turned_away(
    chromium: Any, live_server: Any, alice: User, loop: dict[str, Template], viewport: str
) -> None:
    page = signed_in_page(chromium, live_server.url, alice, viewport)
    page.goto("/")
    assert page.locator("a[href='/insights/']").count() == 0, "no link to a page the reader may not see"

    page.goto("/insights/")
    assert "/admin/login/" in page.url, "the staff sign-in page, not the insights"
    assert page.locator(".insights-table").count() == 0
    refused = page.request.get("/api/insights/")
    assert refused.status == 403
    assert "staff account" in refused.text()
    page.context.close()
