"""In the admin, "Add from a captioned meme" saves nothing at once: it opens the
add form filled in with the blank image, the boxes found (in the box editor, to
correct), the text read as an example caption and its keywords; the template
exists once the curator saves that form, with the boxes as corrected."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from feed.models import Template
from tests.feed.test_template_from_captioned_meme import captioned_meme

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Debian's tesseract-ocr")
URL = "/admin/feed/template/from-meme/"


@pytest.fixture
def curator(client: Client, staff: User, media_in_tmp: Path) -> Client:
    client.force_login(staff)
    return client


def field(page: str, name: str) -> str:
    """A textarea's text or an input's value, as the browser would read it."""
    textarea = re.search(rf'<textarea name="{name}"[^>]*>\n?(.*?)</textarea>', page, re.S)
    found = textarea or re.search(rf'<input type="[a-z]+" name="{name}"(?: value="([^"]*)")?', page)
    assert found, f"no {name} field"
    return (found.group(1) or "").replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&")


@needs_tesseract
def test_the_boxes_found_are_shown_to_correct_and_saved_as_corrected(
    curator: Client, django_capture_on_commit_callbacks: Any
) -> None:
    read = curator.post(URL, {"name": "Boromir", "image": SimpleUploadedFile("m.png", captioned_meme())})
    assert read.status_code == 302 and read["Location"].startswith("/admin/feed/template/add/?draft=")
    assert not Template.objects.exists()

    page = curator.get(read["Location"]).content.decode()
    assert "Nothing is saved yet" in page
    boxes = json.loads(field(page, "boxes"))
    assert len(boxes) == 2
    assert "simply" in field(page, "example_captions").lower()
    assert "mordor" in field(page, "keywords")
    token = field(page, "image_stash")
    assert re.search(rf'data-image="/admin/feed/template/pending/{re.escape(token)}/"', page)
    assert curator.get(f"/admin/feed/template/pending/{token}/").status_code == 200
    assert 'name="is_active"' in page and 'name="is_active" checked' not in page  # starts inactive

    boxes[1]["anchor_y"] = round(1 - boxes[1]["scale_y"], 4)  # the curator moves the bottom box down
    with django_capture_on_commit_callbacks(execute=True):
        saved = curator.post(
            "/admin/feed/template/add/",
            {
                "name": field(page, "name"),
                "slug": field(page, "slug"),
                "image_stash": token,
                "boxes": json.dumps(boxes),
                "mark_position": "bottom-right",
                "keywords": field(page, "keywords"),
                "example_captions": field(page, "example_captions"),
                "credit": field(page, "credit"),
            },
        )
    assert saved.status_code == 302, saved.content.decode()[:3000]
    template = Template.objects.get(slug="boromir")
    assert not template.is_active
    assert template.boxes[1]["anchor_y"] == boxes[1]["anchor_y"]
    assert "mordor" in " ".join(template.example_captions[0]).lower()
    assert template.credit.startswith("Made from a captioned meme")


def test_a_bad_upload_is_shown_on_the_upload_page(curator: Client) -> None:
    bad = curator.post(URL, {"name": "Nope", "image": SimpleUploadedFile("x.jpg", b"junk")})
    assert bad.status_code == 200 and b"not a supported image" in bad.content
    assert b"Add from a captioned meme" in curator.get("/admin/feed/template/").content


def test_a_tampered_draft_fills_nothing_in(curator: Client) -> None:
    page = curator.get("/admin/feed/template/add/?draft=e30:forged:signature").content.decode()
    assert "That draft is broken or over a day old" in page
    assert field(page, "image_stash") == ""
