"""In hot and top, every fifth place goes to the newest memes with fewer than
five votes, so new memes get seen and earn the votes that rank them."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from feed.ranking.sorts import EXPLORE_EVERY, SORTS
from tests.conftest import make_template
from tests.feed_data import bulk_memes


def test_one_place_in_five_goes_to_new_memes_with_few_votes(
    client: Client, alice: User, template: Template
) -> None:
    proven = {meme.pk for meme in bulk_memes(template, 200, likes=50, dislikes=2, rating=0.95)}
    fresh = {meme.pk for meme in bulk_memes(template, 50, rating=0.5)}
    client.force_login(alice)
    items = client.get("/api/feed/?sort=top&page_size=50").json()["results"]
    places = {index + 1 for index, item in enumerate(items) if item["id"] in fresh}
    assert places == {5, 10, 15, 20, 25, 30, 35, 40, 45, 50}
    assert {item["id"] for item in items} - fresh <= proven


def test_new_has_no_exploration(client: Client, alice: User) -> None:
    bulk_memes(make_template("plain"), 30, likes=50, rating=0.95)
    client.force_login(alice)
    ids = [item["id"] for item in client.get("/api/feed/?sort=new&page_size=30").json()["results"]]
    assert ids == sorted(ids, reverse=True)
    assert EXPLORE_EVERY == 5


def test_a_template_feed_shows_only_that_template(client: Client, alice: User) -> None:
    wanted = {meme.pk for meme in bulk_memes(make_template("wanted"), 12)}
    bulk_memes(make_template("other"), 40)
    client.force_login(alice)
    for sort in SORTS:
        items = client.get(f"/api/feed/?sort={sort}&template=wanted&page_size=50").json()["results"]
        assert {item["id"] for item in items} == wanted
        assert {item["template"]["slug"] for item in items} == {"wanted"}
