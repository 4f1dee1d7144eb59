"""The feed's choice stays put, in Chromium: a reader who prefers Drakeposting
picks Random and a sort; the URL holds both (``/?template=random&sort=new``),
so a reload keeps them and back/forward step through them. Changing the
preferred template in the settings menu moves an open feed that holds no
explicit choice, and says so, in the menu, when the feed keeps another."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.auth.models import User

from feed.models import Template, UserSettings
from feed.ranking.seen import SeenMemeQuerySet
from tests.browser.conftest import CAPTIONS, DESKTOP, PHONE, demo_templates, ready_meme, rendered
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

SHOWN = ("drake", "success", "buzz")  # templates with memes in this feed
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}

# The template slug of every card in the page (from the card's template link).
CARD_TEMPLATES = """() => Array.from(document.querySelectorAll('.card .template-link'))
  .map((link) => new URL(link.href).searchParams.get('template'))"""


@pytest.fixture(autouse=True)
def nothing_seen_is_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """These journeys are about the choice in the URL: every feed here shows
    all its memes, not first those the reader has not seen yet (that is
    test_journey_random_mixes_templates_and_a_reload_brings_unseen_memes)."""
    monkeypatch.setattr(SeenMemeQuerySet, "remember", lambda *args, **kwargs: None)


@pytest.fixture
def reader(transactional_db: None) -> User:
    templates = [template for template in demo_templates() if template.slug in SHOWN]
    for _, template in zip(range(18), itertools.cycle(templates), strict=False):
        data, size = rendered(template, CAPTIONS[template.slug])
        ready_meme(template, CAPTIONS[template.slug], data, size, f"memes/{template.slug}.jpg")
    phoebe = User.objects.create_user("phoebe", password=PASSWORD)
    UserSettings.objects.create(
        user=phoebe, howto_seen=True, preferred_template=Template.objects.get(slug="drake")
    )
    return phoebe


def signed_in(chromium: Any, base: str, viewport: str = "desktop") -> Any:
    phone = viewport == "phone"
    context = chromium.new_context(viewport=VIEWPORTS[viewport], is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "phoebe")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base}/")
    return page


def cards_show(page: Any, *slugs: str) -> list[str]:
    """Wait until the feed's cards are of exactly these templates (all of them
    for several); returns the templates shown."""
    page.wait_for_function(
        f"""() => {{
          const shown = new Set(({CARD_TEMPLATES})());
          const wanted = {list(slugs)!r};
          return shown.size === wanted.length && wanted.every((slug) => shown.has(slug));
        }}"""
    )
    return sorted(set(page.evaluate(CARD_TEMPLATES)))


def toolbar(page: Any) -> tuple[str, str]:
    return page.input_value("#feed-template"), page.input_value("#feed-sort")


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_random_and_a_sort_survive_reload_and_history(
    chromium: Any, live_server: Any, reader: User, viewport: str
) -> None:
    base = live_server.url
    page = signed_in(chromium, base, viewport)
    assert toolbar(page) == ("drake", "hot")
    cards_show(page, "drake")

    page.select_option("#feed-template", "")
    page.wait_for_url(f"{base}/?template=random")
    cards_show(page, *SHOWN)

    page.reload()
    assert page.url == f"{base}/?template=random", "the reload kept the choice"
    assert toolbar(page) == ("", "hot")
    cards_show(page, *SHOWN)

    page.select_option("#feed-sort", "new")
    page.wait_for_url(f"{base}/?template=random&sort=new")
    cards_show(page, *SHOWN)

    page.go_back()
    page.wait_for_url(f"{base}/?template=random")
    assert toolbar(page) == ("", "hot")
    page.go_back()
    page.wait_for_url(f"{base}/")
    assert toolbar(page) == ("drake", "hot")
    cards_show(page, "drake")
    page.go_forward()
    page.wait_for_url(f"{base}/?template=random")
    assert toolbar(page) == ("", "hot")
    cards_show(page, *SHOWN)

    # A link to a choice opens that choice, whatever the reader prefers.
    page.context.close()
    page = signed_in(chromium, base, viewport)
    page.goto(f"{base}/?template=success&sort=top")
    assert toolbar(page) == ("success", "top")
    cards_show(page, "success")
    page.context.close()


def settings_say(page: Any, viewport: str) -> str:
    """What the settings menu's status line says once the save is answered; it fits the screen."""
    status = page.locator("#settings-status")
    page.wait_for_function(
        "() => !['', 'Saving…'].includes(document.getElementById('settings-status').textContent)"
    )
    box = status.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS[viewport]["width"], box
    return str(status.inner_text())


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_preferred_template_moves_an_open_feed_unless_it_holds_a_choice(
    chromium: Any, live_server: Any, reader: User, viewport: str
) -> None:
    base = live_server.url
    page = signed_in(chromium, base, viewport)
    cards_show(page, "drake")

    # No choice in the URL: the feed follows the new preferred template at once.
    page.click("#settings-menu summary")
    page.select_option("#preferred-template", "success")
    assert settings_say(page, viewport) == "Saved."
    cards_show(page, "success")
    assert page.url == f"{base}/" and toolbar(page) == ("success", "hot")
    page.reload()
    assert toolbar(page) == ("success", "hot")
    cards_show(page, "success")

    # Random chosen above: the feed keeps it and the menu says how to switch.
    page.select_option("#feed-template", "")
    page.wait_for_url(f"{base}/?template=random")
    cards_show(page, *SHOWN)
    page.click("#settings-menu summary")
    page.select_option("#preferred-template", "buzz")
    assert settings_say(page, viewport) == (
        "Saved. Your feed shows Random; choose the template above to switch."
    )
    assert toolbar(page) == ("", "hot")
    cards_show(page, *SHOWN)
    assert UserSettings.objects.get(user=reader).preferred_template == Template.objects.get(slug="buzz")
    page.context.close()
