"""Random on a newly stocked site: each template's memes were made together and
none has votes yet, so the newest memes are of the few templates stocked last.
Hot, the first sort a newcomer sees, still shows five templates on its first
page; when only two templates are left they take turns, one template alone
fills the feed, and other templates' memes are asked for when the candidates
crowd."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from feed.models import Meme
from feed.ranking.arrangement import Arrangement
from feed.ranking.sorts import Part
from tests.conftest import make_template
from tests.feed_data import scored_meme

TEMPLATES, PER_TEMPLATE, PAGE = 20, 30, 10


@pytest.fixture
def stocked_a_template_at_a_time(db: None) -> None:
    now, memes = timezone.now(), []
    for number in range(TEMPLATES):
        template = make_template(f"stocked{number:02}")
        for copy in range(PER_TEMPLATE):
            made = now - timedelta(seconds=(TEMPLATES - number) * 100 + copy)
            memes.append(scored_meme(template, made))
    Meme.objects.bulk_create(memes)


@pytest.mark.parametrize("sort", ["hot", "top"])
@pytest.mark.usefixtures("stocked_a_template_at_a_time")
def test_a_newcomers_first_page_shows_five_templates(client: Client, alice: User, sort: str) -> None:
    client.force_login(alice)
    page = client.get(f"/api/feed/?sort={sort}&page_size={PAGE}").json()["results"]

    slugs = [item["template"]["slug"] for item in page]
    assert len(set(slugs)) == 5, slugs
    assert all(len(set(slugs[start : start + 5])) == 5 for start in range(PAGE - 4)), slugs


def _candidates(templates: list[int], first_id: int = 0) -> list[dict[str, int]]:
    return [
        {"id": first_id + n, "template_id": template, "part": Part.RANKED, "n": n}
        for n, template in enumerate(templates)
    ]


def test_two_templates_left_take_turns() -> None:
    arrangement = Arrangement("hot", mixed=True)
    arrangement.offer(_candidates([1] * 6 + [2] * 6))
    arrangement.fill(12)
    assert arrangement.templates == [1, 2] * 6


def test_one_template_alone_fills_the_places() -> None:
    arrangement = Arrangement("hot", mixed=True)
    arrangement.offer(_candidates([7] * 8))
    arrangement.fill(8)
    assert arrangement.templates == [7] * 8


def test_other_templates_are_asked_for_when_the_candidates_crowd() -> None:
    arrangement = Arrangement("hot", mixed=True)
    arrangement.offer(_candidates([1] * 10))
    asked: list[int] = []

    def more(crowding: int) -> list[dict[str, int]]:
        asked.append(crowding)
        return _candidates([2, 3, 4, 5] * 3, first_id=100)

    arrangement.fill(10, more)
    assert asked == [1]
    assert arrangement.templates == [1, 2, 3, 4, 5] * 2
