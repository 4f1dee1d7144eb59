"""Random on a phone, in Chromium: after a reader ran low and one template's
fresh batch tops the feed, scrolling never shows more than 3 memes of one
template in a row while others have memes; a reload starts a new feed with
memes the reader has not seen yet."""

from __future__ import annotations

from datetime import timedelta
from itertools import groupby
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import F
from django.utils import timezone

from feed.models import Meme, UserSettings
from feed.ranking.scores import HOT_HOURS_PER_RATING
from tests.browser.conftest import DESKTOP, PHONE, attach_feed, ready_meme
from tests.conftest import PASSWORD, make_template
from tests.feed_data import picture

pytestmark = pytest.mark.browser

COLOURS = ("steelblue", "seagreen", "indianred", "darkorange", "slateblue", "teal", "sienna", "olive")
FRESH_BATCH = 40
SCROLLED = 60


@pytest.fixture
def fresh_batch_on_older_memes(transactional_db: None) -> None:
    for number, colour in enumerate(COLOURS):
        template = make_template(f"kind{number}")
        data = picture(600, 450, colour, template.slug)
        count = FRESH_BATCH if number == 0 else 10
        memes = [
            ready_meme(template, [f"{template.slug} {n}", "bottom"], data, (600, 450), f"memes/{colour}.jpg")
            for n in range(count)
        ]
        if number:  # the older memes: made days before the batch
            older = timezone.now() - timedelta(days=number)
            Meme.objects.filter(pk__in=[meme.pk for meme in memes]).update(
                created_at=older, ready_at=older, hot=F("hot") - number * 24 / HOT_HOURS_PER_RATING
            )
    reader = User.objects.create_user("phoebe", password=PASSWORD)
    UserSettings.objects.create(user=reader, howto_seen=True)


def loaded_at_least(page: Any, count: int) -> list[int]:
    attach_feed(page)
    loaded = page.evaluate("() => window.feed.order.length")
    while loaded < count:
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_function(f"() => window.feed.order.length > {loaded}")
        loaded = page.evaluate("() => window.feed.order.length")
    return list(page.evaluate("() => window.feed.order"))


SCREENS: dict[str, dict[str, Any]] = {
    "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": DESKTOP},
}


@pytest.mark.usefixtures("fresh_batch_on_older_memes")
@pytest.mark.parametrize("screen", list(SCREENS))
def test_random_mixes_templates_and_a_reload_starts_with_unseen_memes(
    chromium: Any, live_server: Any, screen: str
) -> None:
    context = chromium.new_context(**SCREENS[screen])
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "phoebe")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.goto(f"{live_server.url}/?template=random")
    page.wait_for_selector(".card img")

    first_visit = loaded_at_least(page, SCROLLED)
    template_of = dict(Meme.objects.values_list("pk", "template__slug"))
    runs = [len(list(run)) for _, run in groupby(template_of[meme] for meme in first_visit)]
    assert max(runs) <= 3, [template_of[meme] for meme in first_visit]

    page.reload()
    page.wait_for_selector(".card img")
    second_visit = loaded_at_least(page, 10)
    assert not set(second_visit[:10]) & set(first_visit)
    context.close()
