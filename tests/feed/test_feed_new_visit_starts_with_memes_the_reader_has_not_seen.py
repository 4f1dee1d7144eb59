"""What a reader has been served is remembered across visits: a new feed
starts with memes they have not seen, and only once none is left goes back
to those they have. Another reader's feed is not touched by it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import SeenMeme, Template
from feed.ranking.sorts import SORTS
from tests.conftest import make_template
from tests.feed_data import bulk_memes

PAGE = 10


def first_memes(client: Client, reader: User, pages: int, sort: str = "hot") -> list[int]:
    """A new feed (no cursor) and its first ``pages`` pages."""
    client.force_login(reader)
    served: list[int] = []
    url = f"/api/feed/?sort={sort}&page_size={PAGE}"
    for _ in range(pages):
        page = client.get(url).json()
        served += [item["id"] for item in page["results"]]
        url = page["next"]
    return served


@pytest.fixture
def memes(template: Template) -> list[int]:
    voted = bulk_memes(template, 60, likes=8, dislikes=2)
    fresh = bulk_memes(make_template("other"), 60)
    return [meme.pk for meme in voted + fresh]


@pytest.mark.parametrize("sort", SORTS)
def test_a_second_visit_starts_with_memes_the_first_did_not_show(
    client: Client, alice: User, bob: User, memes: list[int], sort: str
) -> None:
    first = first_memes(client, alice, 3, sort)
    second = first_memes(client, alice, 3, sort)
    bobs = first_memes(client, bob, 3, sort)

    assert len(first) == len(second) == 30
    assert not set(first) & set(second)
    assert bobs == first  # bob has seen nothing: he gets what alice got first
    assert set(SeenMeme.objects.filter(user=alice).values_list("meme_id", flat=True)) == {*first, *second}


def test_once_everything_is_seen_the_feed_goes_back_to_seen_memes(
    client: Client, alice: User, memes: list[int], template: Template
) -> None:
    everything = first_memes(client, alice, 12)
    assert sorted(everything) == sorted(memes)
    again = first_memes(client, alice, 2)
    assert len(again) == 2 * PAGE and set(again) <= set(memes)

    made_since = [meme.pk for meme in bulk_memes(template, 3, likes=8, dislikes=2)]
    assert first_memes(client, alice, 1)[:3] == sorted(made_since, reverse=True)
