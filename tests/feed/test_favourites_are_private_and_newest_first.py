"""A reader's favourites: newest first, paged without repeats, theirs alone."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Template, set_favourite
from tests.feed_data import bulk_memes


def favourite_ids(client: Client, page_size: int = 10) -> list[int]:
    ids: list[int] = []
    url: str | None = f"/api/favourites/?page_size={page_size}"
    while url:
        page = client.get(url).json()
        ids += [item["id"] for item in page["results"]]
        url = page["next"]
    return ids


def test_favourites_come_newest_first_across_pages(client: Client, alice: User, template: Template) -> None:
    memes = bulk_memes(template, 25)
    for meme in memes:
        set_favourite(meme.pk, alice, True)
    client.force_login(alice)
    assert favourite_ids(client, page_size=7) == [meme.pk for meme in reversed(memes)]


def test_another_readers_favourites_are_invisible(
    client: Client, alice: User, bob: User, template: Template
) -> None:
    mine, theirs = bulk_memes(template, 2)
    set_favourite(mine.pk, alice, True)
    set_favourite(theirs.pk, bob, True)
    client.force_login(alice)
    assert favourite_ids(client) == [mine.pk]
    items = client.get("/api/favourites/").json()["results"]
    assert items[0]["favourited"] is True


def test_a_favourites_cursor_is_the_readers_own(
    client: Client, alice: User, bob: User, template: Template
) -> None:
    for meme in bulk_memes(template, 3):
        set_favourite(meme.pk, bob, True)
    client.force_login(bob)
    bobs_next = client.get("/api/favourites/?page_size=1").json()["next"]
    client.force_login(alice)
    response = client.get(bobs_next)
    assert response.status_code == 400 and response.json()["cursor"]


def test_unfavouriting_removes_it_and_hidden_memes_leave_the_list(
    client: Client, alice: User, template: Template
) -> None:
    kept, dropped, hidden = bulk_memes(template, 3)
    client.force_login(alice)
    for meme in (kept, dropped, hidden):
        assert client.put(f"/api/memes/{meme.pk}/favourite/").json()["favourites"] == 1
    assert client.delete(f"/api/memes/{dropped.pk}/favourite/").json()["favourited"] is False
    hidden.hide()
    assert favourite_ids(client) == [kept.pk]
    assert Meme.objects.get(pk=dropped.pk).favourites == 0


def test_favourites_need_a_reader(client: Client) -> None:
    assert client.get("/api/favourites/").status_code in (401, 403)
