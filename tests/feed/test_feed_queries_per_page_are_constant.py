"""A feed page costs the same few queries whatever its size: session, user,
one take of the reader's memes served (THROTTLE_FEED_MEMES), one read in which
my_reaction and favourited are annotations (never a query per item) and one
INSERT remembering what the reader was served; one page in
four or five also extends the reader's session (its candidates, and the
INSERT of the places chosen among them; one more read of other templates'
candidates when one template crowds every template's feed). The first page
also takes from the reader's limit on new feeds, and the first page of one
template's feed looks the template up."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

from feed.models import Template, set_favourite, set_reaction
from tests.feed_data import bulk_memes

MAX_QUERIES = 8
# A read without a cursor also takes one use of the reader's limit on new feeds.
MAX_FIRST_PAGE_QUERIES = MAX_QUERIES + 1


@pytest.fixture(autouse=True)
def reading_faster_than_a_person(settings: Any) -> None:
    settings.THROTTLE_FEED_MEMES = "1000000/minute"  # pages of 50 at once: counted, never refused here


@pytest.fixture
def feed_with_reactions(template: Template, alice: User) -> None:
    memes = bulk_memes(template, 400)
    for meme in memes[:60:2]:
        set_reaction(meme.pk, alice, 1)
        set_favourite(meme.pk, alice, True)


def walk_pages(
    client: Client, url: str, pages: int, assert_queries: Any, first_page_extra: int = 0, **headers: Any
) -> None:
    for page in range(pages):
        with assert_queries(MAX_FIRST_PAGE_QUERIES + first_page_extra if page == 0 else MAX_QUERIES):
            response = client.get(url, **headers)
        assert response.status_code == 200
        assert response.json()["results"]
        url = response.json()["next"]


@pytest.mark.parametrize("page_size", [5, 50])
@pytest.mark.usefixtures("feed_with_reactions")
def test_every_page_takes_at_most_eight_queries(
    client: Client, alice: User, page_size: int, django_assert_max_num_queries: Any
) -> None:
    client.force_login(alice)
    walk_pages(client, f"/api/feed/?page_size={page_size}", 6, django_assert_max_num_queries)


@pytest.mark.usefixtures("feed_with_reactions")
def test_a_template_feed_costs_no_more(
    client: Client, alice: User, django_assert_max_num_queries: Any
) -> None:
    client.force_login(alice)
    url = "/api/feed/?page_size=50&template=success&sort=top"
    walk_pages(client, url, 4, django_assert_max_num_queries, first_page_extra=1)


@pytest.mark.usefixtures("feed_with_reactions")
def test_token_clients_cost_no_more(client: Client, alice: User, django_assert_max_num_queries: Any) -> None:
    token = Token.objects.create(user=alice)
    walk_pages(
        client,
        "/api/feed/?page_size=50",
        4,
        django_assert_max_num_queries,
        HTTP_AUTHORIZATION=f"Token {token.key}",
    )


@pytest.mark.usefixtures("feed_with_reactions")
def test_my_reaction_and_favourited_come_with_the_page(client: Client, alice: User) -> None:
    client.force_login(alice)
    items = client.get("/api/feed/?page_size=50&sort=top").json()["results"]
    liked = [item for item in items if item["my_reaction"] == 1]
    assert liked and all(item["favourited"] for item in liked)
    assert all(item["my_reaction"] == 0 and not item["favourited"] for item in items if item not in liked)
