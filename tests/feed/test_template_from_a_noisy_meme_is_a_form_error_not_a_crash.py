"""A captioned-meme upload that Tesseract refuses (a noisy photo of 800 px and
more composes an OCR page taller than Tesseract takes: "Image too large") is
answered with a message on the form, never a server error, and stores nothing."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from feed.models import Template

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Debian's tesseract-ocr")


def noisy_jpeg(width: int, height: int) -> bytes:
    pixels = np.random.default_rng(width).integers(0, 256, (height, width, 3), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "JPEG", quality=75)
    return buffer.getvalue()


@pytest.mark.parametrize(("width", "height"), [(800, 800), (1200, 900), (1600, 1600)])
def test_a_noisy_upload_gets_a_message_on_the_form(
    client: Client, staff: User, media_in_tmp: Path, width: int, height: int
) -> None:
    client.force_login(staff)
    upload = SimpleUploadedFile("noisy.jpg", noisy_jpeg(width, height), content_type="image/jpeg")
    response = client.post("/admin/feed/template/from-meme/", {"name": "Noise", "image": upload})
    assert response.status_code == 200
    assert b"could not be read" in response.content
    assert not Template.objects.exists()
    assert not (media_in_tmp / "templates").exists()
