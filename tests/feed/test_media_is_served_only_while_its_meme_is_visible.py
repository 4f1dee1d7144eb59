"""The site serves its own media in every configuration (the tests run with
DEBUG off, as production does): a visible meme's image and its lighter copies
and an active template's image to everyone, with cache headers; a hidden meme's
image and every copy of it is a 404 the moment it is hidden, except to staff,
whose copy no shared cache keeps; a file no row names, or a path outside the
media folder, is a 404."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Template
from generation.render.variants import variant_name
from generation.variants import make_variants
from tests.feed_data import pictured_meme

# Browsers keep a meme's files a year; no shared cache keeps them at all.
MEME_CACHING = "private, max-age=31536000, immutable"


@pytest.fixture
def meme(template: Template) -> Meme:
    meme = pictured_meme(template, ["top", "bottom"], "teal")
    assert make_variants([meme.pk]).made == 1
    meme.refresh_from_db()
    return meme


def copies_of(meme: Meme) -> list[str]:
    assert meme.image_variants == [600, 800]
    return [f"/media/{variant_name(str(meme.image.name), width)}" for width in meme.image_variants]


def image_of(client: Client, meme: Meme) -> tuple[int, bytes, dict[str, str]]:
    response = client.get(meme.image.url)
    return response.status_code, response.getvalue(), dict(response.headers)


def test_a_visible_memes_image_is_served_to_anyone(client: Client, meme: Meme, media_in_tmp: Path) -> None:
    status, body, headers = image_of(client, meme)
    assert status == 200
    assert headers["Content-Type"] == "image/jpeg"
    assert body == Path(meme.image.path).read_bytes()
    assert headers["Cache-Control"] == MEME_CACHING
    assert "Last-Modified" in headers


def test_a_visible_memes_copies_are_served_to_anyone_as_webp(client: Client, meme: Meme) -> None:
    for url in copies_of(meme):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"] == "image/webp"
        assert response["Cache-Control"] == MEME_CACHING


def test_every_copy_of_a_hidden_meme_is_a_404_until_it_is_shown_again(
    client: Client, alice: User, meme: Meme
) -> None:
    client.force_login(alice)
    meme.hide()
    for url in copies_of(meme):
        assert client.get(url).status_code == 404, url
        assert Client().get(url).status_code == 404, url

    meme.unhide()
    for url in copies_of(meme):
        assert client.get(url).status_code == 200, url


def test_staff_see_a_hidden_memes_copies_and_no_cache_keeps_them(
    client: Client, staff: User, meme: Meme
) -> None:
    meme.hide()
    client.force_login(staff)
    for url in copies_of(meme):
        response = client.get(url)
        assert (response.status_code, response["Cache-Control"]) == (200, "private, no-store"), url


def test_a_copy_named_like_a_visible_memes_but_of_another_file_is_a_404(
    client: Client, meme: Meme, media_in_tmp: Path
) -> None:
    stray = media_in_tmp / variant_name("memes/0123abc.jpg", 600)
    stray.write_bytes(b"RIFF not shown")
    for path in (f"/media/{variant_name('memes/0123abc.jpg', 600)}", f"/media/{meme.image.name}.600w.webp"):
        assert client.get(path).status_code == 404, path


def test_a_hidden_memes_image_is_a_404_until_it_is_shown_again(
    client: Client, alice: User, meme: Meme
) -> None:
    client.force_login(alice)
    meme.hide()
    assert image_of(client, meme)[0] == 404
    assert image_of(Client(), meme)[0] == 404

    meme.unhide()
    assert image_of(client, meme)[0] == 200


def test_staff_still_see_a_hidden_memes_image_and_no_shared_cache_keeps_it(
    client: Client, staff: User, meme: Meme
) -> None:
    meme.hide()
    client.force_login(staff)
    status, _, headers = image_of(client, meme)
    assert status == 200
    assert headers["Cache-Control"] == "private, no-store"


def test_a_file_shared_with_a_visible_meme_stays_served(
    client: Client, template: Template, meme: Meme
) -> None:
    twin = Meme.objects.create(template=template, texts=meme.texts, status="ready", image=meme.image.name)
    twin.hide()
    assert image_of(client, twin)[0] == 200


def test_template_images_are_served_while_the_template_is_active(
    client: Client, staff: User, template: Template
) -> None:
    url = template.image.url
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"
    # A template's file keeps its upload name, which a new image may take: kept an hour, by anyone.
    assert response["Cache-Control"] == "public, max-age=3600"

    Template.objects.filter(pk=template.pk).update(is_active=False)
    assert client.get(url).status_code == 404
    client.force_login(staff)
    assert client.get(url).status_code == 200


def test_a_file_no_row_names_is_a_404(client: Client, meme: Meme, media_in_tmp: Path) -> None:
    (media_in_tmp / "memes" / "left-over.jpg").write_bytes(b"\xff\xd8 not shown")
    (media_in_tmp / "notes.txt").write_text("private")
    for path in (
        "/media/memes/left-over.jpg",
        "/media/notes.txt",
        "/media/memes/",
        "/media/memes/nothing.jpg",
    ):
        assert client.get(path).status_code == 404, path


@pytest.mark.parametrize(
    "path",
    ["/media/../manage.py", "/media/memes/../../manage.py", "/media/%2e%2e/manage.py", "/media//etc/passwd"],
)
def test_a_path_outside_the_media_folder_is_a_404(client: Client, meme: Meme, path: str) -> None:
    Meme.objects.filter(pk=meme.pk).update(image=path.removeprefix("/media/"))
    assert client.get(path).status_code == 404


def test_an_unchanged_image_is_a_304_with_the_same_cache_headers(client: Client, meme: Meme) -> None:
    first = client.get(meme.image.url)
    again = client.get(meme.image.url, headers={"If-Modified-Since": first["Last-Modified"]})
    assert again.status_code == 304
    assert again["Cache-Control"] == MEME_CACHING

    meme.hide()
    assert (
        client.get(meme.image.url, headers={"If-Modified-Since": first["Last-Modified"]}).status_code == 404
    )
