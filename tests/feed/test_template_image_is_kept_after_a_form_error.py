"""A curator who chose an image and then got a form error does not choose the
image again: the checked image waits in storage, named by a signed token in the
form, shows in the box editor, and is the one saved on the next try."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from feed.models import Template
from feed.pending_uploads import PENDING_DIR, forget_pending_images
from tests.conftest import jpeg_bytes, make_template

BOXES = json.dumps([{"anchor_x": 0, "anchor_y": 0, "scale_x": 1, "scale_y": 0.25}])
BAD_BOXES = json.dumps([{"anchor_x": 0, "anchor_y": 0.9, "scale_x": 1, "scale_y": 0.25}])


@pytest.fixture
def curator(client: Client, staff: User, media_in_tmp: Path) -> Client:
    client.force_login(staff)
    return client


def form(boxes: str = BOXES, **fields: Any) -> dict[str, Any]:
    return {"name": "Kept", "slug": "kept", "boxes": boxes, "mark_position": "bottom-right", **fields}


def kept_token(page: str) -> str:
    match = re.search(r'<input type="hidden" name="image_stash" value="([^"]+)"', page)
    assert match, "the form carries no kept image"
    return match.group(1)


def test_the_image_chosen_before_an_error_is_saved_on_the_next_try(
    curator: Client, media_in_tmp: Path, django_capture_on_commit_callbacks: Any
) -> None:
    image = jpeg_bytes(640, 480, "orange")
    first = curator.post(
        "/admin/feed/template/add/", form(BAD_BOXES, image=SimpleUploadedFile("a.png", image))
    )
    assert first.status_code == 200 and "reaches outside the image" in first.content.decode()
    token = kept_token(first.content.decode())
    assert not Template.objects.exists()

    # The box editor shows the kept image; only curators can fetch it.
    shown = re.search(r'data-image="([^"]+)"', first.content.decode())
    assert shown and shown.group(1) == f"/admin/feed/template/pending/{token}/"
    picture = curator.get(shown.group(1))
    assert picture.status_code == 200 and picture["Content-Type"] == "image/jpeg"

    with django_capture_on_commit_callbacks(execute=True):
        second = curator.post(
            "/admin/feed/template/add/", form(image_stash=token)
        )  # no file chosen this time
    assert second.status_code == 302, second.content.decode()[:3000]
    template = Template.objects.get(slug="kept")
    with template.image.open("rb") as handle:
        saved = handle.read()
    assert saved == picture.content and template.image_sha256 == hashlib.sha256(saved).hexdigest()
    assert not list((media_in_tmp / PENDING_DIR).iterdir())  # the kept copy went once it was saved


def test_a_new_image_on_a_saved_template_is_kept_across_an_error(curator: Client) -> None:
    template = make_template(boxes=1)
    old_sha = template.image_sha256
    change = f"/admin/feed/template/{template.pk}/change/"
    upload = SimpleUploadedFile("b.jpg", jpeg_bytes(500, 500, "purple"))
    first = curator.post(change, form(BAD_BOXES, name=template.name, slug=template.slug, image=upload))
    token = kept_token(first.content.decode())

    curator.post(change, form(name=template.name, slug=template.slug, image_stash=token))
    template.refresh_from_db()
    assert template.image_sha256 != old_sha
    assert template.image.width == 500


def test_without_an_image_or_a_kept_one_the_form_asks_for_one(curator: Client) -> None:
    response = curator.post("/admin/feed/template/add/", form())
    assert "Choose the template&#x27;s image." in response.content.decode()
    assert 'name="image_stash" value="' not in response.content.decode()


def test_a_forged_token_names_no_image(curator: Client, media_in_tmp: Path) -> None:
    first = curator.post(
        "/admin/feed/template/add/", form(BAD_BOXES, image=SimpleUploadedFile("a.jpg", jpeg_bytes()))
    )
    token = kept_token(first.content.decode())
    name, _, signature = token.partition(":")
    forged = f"{name[:-2]}xx:{signature}"
    response = curator.post("/admin/feed/template/add/", form(image_stash=forged))
    assert "Choose the template&#x27;s image." in response.content.decode()
    assert curator.get(f"/admin/feed/template/pending/{forged}/").status_code == 404
    assert not Template.objects.exists()


def test_a_bad_image_is_not_kept(curator: Client) -> None:
    upload = SimpleUploadedFile("x.jpg", b"not an image at all")
    response = curator.post("/admin/feed/template/add/", form(image=upload))
    assert "not a supported image" in response.content.decode()
    assert 'name="image_stash" value="' not in response.content.decode()


def test_readers_cannot_fetch_a_kept_image(curator: Client, client: Client, alice: User) -> None:
    first = curator.post(
        "/admin/feed/template/add/", form(BAD_BOXES, image=SimpleUploadedFile("a.jpg", jpeg_bytes()))
    )
    token = kept_token(first.content.decode())
    reader = Client()
    reader.force_login(alice)
    assert reader.get(f"/admin/feed/template/pending/{token}/").status_code == 302  # to the admin login


def test_images_no_form_claimed_are_deleted_after_a_day(curator: Client, media_in_tmp: Path) -> None:
    curator.post(
        "/admin/feed/template/add/", form(BAD_BOXES, image=SimpleUploadedFile("a.jpg", jpeg_bytes()))
    )
    assert forget_pending_images() == 0
    assert forget_pending_images(now=timezone.now() + timedelta(days=1, minutes=1)) == 1
    assert not list((media_in_tmp / PENDING_DIR).iterdir())
    output = StringIO()
    call_command("tidy_feed", stdout=output)
    assert "deleted 0 template images no form claimed" in output.getvalue()
