"""Where a meme has lighter WebP copies, its permalink and the landing page
offer them in a ``<picture>`` (``srcset`` with each copy's width, ``sizes`` for
the column the meme is drawn in), the feed API lists them as ``variants`` for
the feed's cards, and the ``<img>`` inside keeps the meme's own image for
browsers without WebP. A meme without copies gets the image alone; one whose
full-width copy was no lighter than its image offers the image at that width."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Template
from generation.variants import make_variants
from tests.feed_data import pictured_meme

ORIGIN = "http://testserver"


def with_copies(meme: Meme, widths: list[int] | None = None) -> Meme:
    assert make_variants([meme.pk]).made == 1
    if widths is not None:
        Meme.objects.filter(pk=meme.pk).update(image_variants=widths)
    meme.refresh_from_db()
    return meme


def copy_url(meme: Meme, width: int) -> str:
    return f"{ORIGIN}{meme.image.url.removesuffix('.jpg')}.{width}w.webp"


def sources(page: str) -> list[tuple[str, str, str]]:
    return re.findall(r'<source type="([^"]+)" srcset="([^"]+)" sizes="([^"]+)">', page)


def test_a_permalink_offers_both_copies_for_the_feeds_column(client: Client, template: Template) -> None:
    meme = with_copies(pictured_meme(template, ["top", "bottom"], "teal"))
    page = client.get(f"/m/{meme.pk}/").content.decode()

    [(kind, srcset, sizes)] = sources(page)
    assert kind == "image/webp"
    assert srcset == f"{copy_url(meme, 600)} 600w, {copy_url(meme, 800)} 800w"
    assert sizes == "(max-width: 600px) calc(100vw - 18px), 574px"
    assert re.search(rf'<img src="{ORIGIN}{re.escape(meme.image.url)}" alt="top / bottom" width="800"', page)
    assert "</picture>" in page


def test_a_meme_without_copies_is_shown_by_its_image_alone(client: Client, template: Template) -> None:
    meme = pictured_meme(template, ["top", "bottom"], "teal")
    page = client.get(f"/m/{meme.pk}/").content.decode()

    assert "<picture>" not in page and sources(page) == []
    assert f'<img src="{ORIGIN}{meme.image.url}"' in page


def test_the_image_stands_in_for_a_full_width_copy_that_was_no_lighter(
    client: Client, template: Template
) -> None:
    meme = with_copies(pictured_meme(template, ["top", "bottom"], "teal"), widths=[600])
    page = client.get(f"/m/{meme.pk}/").content.decode()

    [(_, srcset, _)] = sources(page)
    assert srcset == f"{copy_url(meme, 600)} 600w, {ORIGIN}{meme.image.url} 800w"


def test_the_landing_page_offers_copies_for_its_columns(client: Client, template: Template) -> None:
    memes = [with_copies(pictured_meme(template, [f"meme {n}", "bottom"], "teal")) for n in range(4)]
    page = client.get("/").content.decode()

    found = sources(page)
    assert len(found) == 4
    for meme in memes:
        assert f"{copy_url(meme, 600)} 600w, {copy_url(meme, 800)} 800w" in [srcset for _, srcset, _ in found]
    assert {sizes for _, _, sizes in found} == {
        "(max-width: 595px) calc(100vw - 18px), (max-width: 887px) calc(50vw - 28px), "
        "(max-width: 1024px) calc((100vw - 72px) / 3), 315px"
    }
    assert page.count('loading="lazy"') == 1, "the first three, seen at once, load at once"


def test_the_api_lists_each_copy_with_its_size_and_type(
    client: Client, alice: User, template: Template
) -> None:
    meme = with_copies(pictured_meme(template, ["top", "bottom"], "teal", (800, 627)))
    bare = pictured_meme(template, ["no", "copies"], "olive")
    client.force_login(alice)

    item = client.get(f"/api/memes/{meme.pk}/").json()
    assert item["image"] == f"{ORIGIN}{meme.image.url}"
    assert item["variants"] == [
        {"url": copy_url(meme, 600), "width": 600, "height": 470, "type": "image/webp"},
        {"url": copy_url(meme, 800), "width": 800, "height": 627, "type": "image/webp"},
    ]
    assert client.get(f"/api/memes/{bare.pk}/").json()["variants"] == []
    feed = client.get("/api/feed/").json()["results"]
    assert {row["id"]: len(row["variants"]) for row in feed} == {meme.pk: 2, bare.pk: 0}
