"""A meme's page carries OpenGraph tags (absolute image URL, size, alt text)
so a shared link shows the meme, a share link, and a download link for the
image named after its template and the meme (``success-1234.jpg``)."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from tests.feed_data import pictured_meme


def meta(page: str, name: str) -> str:
    found = re.search(rf'<meta (?:property|name)="{re.escape(name)}" content="([^"]*)"', page)
    assert found, name
    return found.group(1)


def test_open_graph_tags_describe_the_meme(client: Client, template: Template) -> None:
    meme = pictured_meme(template, ["top", "bottom"], "teal", (640, 480))
    page = client.get(f"/m/{meme.pk}/").content.decode()
    assert meta(page, "og:title") == "top / bottom"
    assert meta(page, "og:image") == f"http://testserver{meme.image.url}"
    assert (meta(page, "og:image:width"), meta(page, "og:image:height")) == ("640", "480")
    assert meta(page, "og:url") == f"http://testserver/m/{meme.pk}/"
    assert meta(page, "twitter:card") == "summary_large_image"
    assert "AI-made" in meta(page, "og:description")


def test_the_image_can_be_downloaded(client: Client, alice: User, template: Template) -> None:
    meme = pictured_meme(template, ["top", "bottom"], "teal")
    client.force_login(alice)
    page = client.get(f"/m/{meme.pk}/").content.decode()
    assert f'href="http://testserver{meme.image.url}" download="success-{meme.pk}.jpg"' in page
    assert 'data-action="like"' in page


def test_the_page_has_a_share_link_to_itself(client: Client, template: Template) -> None:
    meme = pictured_meme(template, ["top", "bottom"], "teal")
    page = client.get(f"/m/{meme.pk}/").content.decode()
    assert f'<a class="share" href="http://testserver/m/{meme.pk}/" data-share>Share</a>' in page


def test_the_page_says_when_the_meme_was_made(client: Client, template: Template) -> None:
    meme = pictured_meme(template, ["top", "bottom"], "teal")
    page = client.get(f"/m/{meme.pk}/").content.decode()
    made = meme.created_at
    stamp = made.isoformat().replace("+00:00", "Z")
    assert f'<time datetime="{stamp}">{made.day} {made:%b %Y}</time>' in page
