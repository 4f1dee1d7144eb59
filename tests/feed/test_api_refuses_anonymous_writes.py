"""Without a signed-in reader every write is refused (401 or 403) and the feed
itself is closed; reading one meme and the templates stays public."""

from __future__ import annotations

import pytest
from django.test import Client

from feed.models import Meme, Template
from tests.conftest import make_meme


@pytest.fixture
def meme(template: Template) -> Meme:
    return make_meme(template)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("put", "reaction/", {"value": 1}),
        ("delete", "reaction/", None),
        ("put", "favourite/", None),
        ("delete", "favourite/", None),
        ("post", "report/", {"reason": "spam"}),
        ("put", "hidden/", None),
    ],
)
def test_anonymous_writes_to_a_meme_are_refused(
    client: Client, meme: Meme, method: str, path: str, body: object
) -> None:
    response = getattr(client, method)(f"/api/memes/{meme.pk}/{path}", body, content_type="application/json")
    assert response.status_code in (401, 403)
    meme.refresh_from_db()
    assert (meme.likes, meme.favourites, meme.reports, meme.status) == (0, 0, 0, Meme.Status.READY)


@pytest.mark.parametrize("path", ["/api/feed/", "/api/favourites/", "/api/me/settings/"])
def test_the_readers_own_things_need_a_reader(client: Client, path: str, db: None) -> None:
    assert client.get(path).status_code in (401, 403)
    assert client.patch(path, {}, content_type="application/json").status_code in (401, 403, 405)


def test_a_meme_and_the_templates_are_public(client: Client, meme: Meme) -> None:
    item = client.get(f"/api/memes/{meme.pk}/").json()
    assert item["id"] == meme.pk and item["my_reaction"] == 0 and item["favourited"] is False
    assert [template["slug"] for template in client.get("/api/templates/").json()] == ["success"]


def test_a_bad_token_is_refused(client: Client, meme: Meme) -> None:
    response = client.put(f"/api/memes/{meme.pk}/favourite/", HTTP_AUTHORIZATION="Token not-a-real-token")
    assert response.status_code in (401, 403)
    assert "token" in response.json()["detail"].lower()
