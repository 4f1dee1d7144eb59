"""A curator uploads a meme that already has a caption; it becomes a blank,
inactive template whose boxes sit where the text was."""

import io
import shutil
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from PIL import Image, ImageDraw

from feed.importer import CaptionedMemeError, template_from_captioned_meme
from feed.models import Template
from generation.layout import default_boxes
from generation.render import render_meme

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Debian's tesseract-ocr")


def photo(width: int = 800, height: int = 600) -> Image.Image:
    """A busy, photo-like background: captions must be read over texture, not a flat colour."""
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    for y in range(0, height, 6):
        draw.rectangle((0, y, width, y + 6), fill=(90 + y % 97, 120 + (y * 3) % 80, 140 + (y * 7) % 60))
    return image


def captioned_meme() -> bytes:
    rendered = render_meme(photo(), default_boxes(2), ["one does not simply", "walk into mordor"], width=800)
    buffer = io.BytesIO()
    rendered.image.save(buffer, "PNG")
    return buffer.getvalue()


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


@needs_tesseract
@pytest.mark.django_db
def test_the_text_becomes_boxes_an_example_caption_and_keywords() -> None:
    template = template_from_captioned_meme(captioned_meme(), "Boromir")

    assert template.slug == "boromir" and not template.is_active
    assert template.box_count == 2
    top, bottom = template.boxes
    assert top["anchor_y"] < 0.3 < 0.6 < bottom["anchor_y"] + bottom["scale_y"]
    read = " ".join(template.example_captions[0]).lower()
    assert "simply" in read and "mordor" in read
    assert "mordor" in template.keywords
    assert str(template.image.name).endswith(".jpg") and len(template.image_sha256) == 64


@needs_tesseract
@pytest.mark.django_db
def test_an_image_without_text_is_refused_and_nothing_is_stored(media_in_tmp: Path) -> None:
    with pytest.raises(CaptionedMemeError, match="no readable text"):
        template_from_captioned_meme(png(photo()), "Blank")
    assert not Template.objects.exists()
    assert not (media_in_tmp / "templates").exists()


@pytest.mark.django_db
def test_a_file_that_is_not_an_image_is_refused() -> None:
    with pytest.raises(CaptionedMemeError, match="not a supported image"):
        template_from_captioned_meme(b"%PDF-1.4 not an image", "Nope", filename="meme.jpg")
    assert not Template.objects.exists()


@pytest.mark.django_db
def test_a_taken_slug_is_refused_before_any_work() -> None:
    from tests.conftest import make_template

    make_template("boromir")
    with pytest.raises(CaptionedMemeError, match="exists already"):
        template_from_captioned_meme(b"", "Boromir")


@pytest.mark.django_db
def test_a_template_needs_a_name() -> None:
    with pytest.raises(CaptionedMemeError, match="name"):
        template_from_captioned_meme(b"", "   ")


def test_readers_cannot_reach_the_admin_page(client: Client, alice: User) -> None:
    client.force_login(alice)
    assert client.get("/admin/feed/template/from-meme/").status_code == 302


def test_the_command_reports_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="No such file"):
        call_command("template_from_meme", str(tmp_path / "nope.png"), "--name", "Nope")
