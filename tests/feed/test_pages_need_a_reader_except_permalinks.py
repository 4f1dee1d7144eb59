"""The feed and favourites need a signed-in reader (a visitor at ``/`` gets the
landing page instead: test_pages_landing_shows_visitors_the_best_memes); a
meme's own page is public so it can be shared, but only while the meme is in
the feed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Template
from tests.conftest import make_meme


@pytest.mark.parametrize("path", ["/favourites/", "/make/"])
def test_signed_out_readers_are_sent_to_sign_in(client: Client, path: str, db: None) -> None:
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_feed_page_is_a_shell_the_api_fills(client: Client, alice: User, template: Template) -> None:
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'id="feed"' in page and "js/feed.js" in page and 'href="/make/"' in page
    assert '<option value="success">Success</option>' in page


def test_a_permalink_is_public(client: Client, template: Template) -> None:
    meme = make_meme(template, texts=["one does not simply", "write a meme"])
    page = client.get(f"/m/{meme.pk}/").content.decode()
    assert "one does not simply / write a meme" in page and "AI-made" in page


@pytest.mark.parametrize("status", [Meme.Status.QUEUED, Meme.Status.FAILED, Meme.Status.HIDDEN])
def test_a_meme_outside_the_feed_has_no_page(client: Client, template: Template, status: str) -> None:
    assert client.get(f"/m/{make_meme(template, status=status).pk}/").status_code == 404
