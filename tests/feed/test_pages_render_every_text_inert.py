"""Captions, template names and usernames are shown as text, never as markup:
autoescaped in pages, textContent in script, raw strings in the API. No page
has an inline script or style element (the CSP would block them anyway)."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.test import Client

from feed.models import set_favourite
from tests.conftest import make_meme, make_template

SCRIPT = '<script>alert("x")</script>'
IMAGE = '"><img src=x onerror=alert(1)>'


def test_hostile_text_is_escaped_on_every_page(client: Client, db: None) -> None:
    template = make_template("hostile", name=f"Drake {SCRIPT}")
    meme = make_meme(template, texts=[SCRIPT, IMAGE])
    reader = User.objects.create_user(f"eve{IMAGE}"[:30], password="correct horse battery staple")
    set_favourite(meme.pk, reader, True)
    client.force_login(reader)
    for path in ("/", "/favourites/", f"/m/{meme.pk}/"):
        page = client.get(path).content.decode()
        assert SCRIPT not in page and "<img src=x" not in page, path
        assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", page), f"inline script on {path}"
        assert "<style" not in page, path
    permalink = client.get(f"/m/{meme.pk}/").content.decode()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in permalink


def test_hostile_text_is_escaped_on_the_landing_page(client: Client, db: None) -> None:
    template = make_template("hostile", name=f"Drake {SCRIPT}")
    make_meme(template, texts=[SCRIPT, IMAGE], image="memes/hostile.jpg")
    page = client.get("/").content.decode()
    assert SCRIPT not in page and "<img src=x" not in page
    assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", page)
    assert "Drake &lt;script&gt;" in page and "&quot;&gt;&lt;img src=x" in page


def test_the_api_returns_text_as_it_was_written(client: Client, alice: User) -> None:
    meme = make_meme(make_template("plain"), texts=[SCRIPT, IMAGE])
    item = client.get(f"/api/memes/{meme.pk}/").json()
    assert item["texts"] == [SCRIPT, IMAGE] and item["alt"] == f"{SCRIPT} / {IMAGE}"
    assert client.get(f"/api/memes/{meme.pk}/")["Content-Type"] == "application/json"


def test_the_feed_script_never_writes_markup() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "static" / "js"
    for path in root.glob("*.js"):
        source = path.read_text()
        assert "innerHTML" not in source and "insertAdjacentHTML" not in source and "eval(" not in source
