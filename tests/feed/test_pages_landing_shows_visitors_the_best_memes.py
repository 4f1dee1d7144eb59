"""A visitor who is not signed in gets, at ``/``, what the site is, a sample of
its best memes (each linking to its public page) and the way in; a signed-in
reader still gets the feed. The page costs one query and works with no memes."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from feed.models import Meme, Template
from feed.ranking.scores import rating_of
from feed.views import LANDING_MEMES
from tests.conftest import make_meme


def drawn_meme(template: Template, number: int, likes: int = 0, **fields: Any) -> Meme:
    return make_meme(
        template,
        texts=[f"meme {number}", "bottom"],
        image=f"memes/{number}.jpg",
        likes=likes,
        rating=rating_of(likes, 0),
        **fields,
    )


def shown_ids(page: str) -> list[int]:
    return [int(found) for found in re.findall(r'<a class="landing-link" href="/m/(\d+)/">', page)]


def test_a_visitor_learns_what_the_site_is_and_how_to_join(client: Client, db: None) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "endless feed of memes" in page and "written and drawn by an AI" in page
    assert "learns" in page
    assert f'<a class="button primary" href="{reverse("signup")}">Sign up</a>' in page
    assert f'<a class="button" href="{reverse("login")}">Sign in</a>' in page


def test_the_best_memes_are_shown_best_first_each_linking_to_its_page(
    client: Client, template: Template
) -> None:
    memes = [drawn_meme(template, number, likes=number) for number in range(12)]
    page = client.get("/").content.decode()
    best = sorted(memes, key=lambda meme: -meme.rating)[:LANDING_MEMES]
    assert shown_ids(page) == [meme.pk for meme in best]
    assert 6 <= len(shown_ids(page)) <= 9
    assert 'alt="meme 11 / bottom"' in page and "AI-made" in page
    assert client.get(f"/m/{best[0].pk}/").status_code == 200  # the permalink stays public


def test_hidden_reported_unfinished_and_undrawn_memes_stay_off(client: Client, template: Template) -> None:
    shown = drawn_meme(template, 1)
    hidden = drawn_meme(template, 2, likes=50, status=Meme.Status.HIDDEN)
    reported = drawn_meme(template, 3, likes=50, reports=1)
    queued = drawn_meme(template, 4, likes=50, status=Meme.Status.QUEUED)
    failed = drawn_meme(template, 5, likes=50, status=Meme.Status.FAILED)
    undrawn = make_meme(template, likes=50, rating=rating_of(50, 0))  # no image
    ids = shown_ids(client.get("/").content.decode())
    assert ids == [shown.pk]
    assert not {hidden.pk, reported.pk, queued.pk, failed.pk, undrawn.pk} & set(ids)


def test_with_no_memes_yet_the_page_says_so(client: Client, template: Template) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "No memes yet" in response.content.decode()


def test_the_page_costs_one_query_however_many_memes(
    client: Client, template: Template, django_assert_max_num_queries: Any
) -> None:
    for number in range(40):
        drawn_meme(template, number, likes=number % 7)
    with django_assert_max_num_queries(1):
        assert client.get("/").status_code == 200


def test_a_signed_in_reader_still_gets_the_feed(client: Client, alice: User, template: Template) -> None:
    drawn_meme(template, 1)
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'id="feed"' in page and "landing-grid" not in page
