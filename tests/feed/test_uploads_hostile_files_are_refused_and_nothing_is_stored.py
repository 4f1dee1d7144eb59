"""Hostile files through every upload path, posted as staff: the template admin's
add and change forms and its "Add from a captioned meme" page (the API takes no
files). Bombs, truncated and empty files, SVG, impostors and oversized files are
refused and nothing is stored: no template row, no file under MEDIA_ROOT, a
changed template keeps its image.

The admin refuses by showing its form again (status 200) with the reason beside
the image field, Django admin's way with any invalid form; that counts as a
clear refusal here only when the message names the problem.

A valid image carrying something extra (an HTML, ZIP or script tail, a script in
its comment, a misleading extension) may be taken, but only re-encoded under a
name of our own: the extra never reaches storage. (A captioned meme's blank image
waits under pending-templates/ for the curator to check its boxes.)"""

from __future__ import annotations

import functools
import io
import shutil
import struct
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image, ImageDraw, PngImagePlugin

from feed.models import Template
from generation.layout import default_boxes
from generation.render import render_meme
from tests.conftest import make_template

PAYLOAD = b"<script>window.__pwned=1</script>"
MARK = b"pwned"  # in every payload: a stored file must not contain it

# --- the files ----------------------------------------------------------------


def encoded(image: Image.Image, image_format: str, **options: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, image_format, **options)
    return buffer.getvalue()


@functools.cache
def captioned() -> Image.Image:
    """A meme whose caption OCR reads, so the captioned-meme path has work to do."""
    background = Image.new("RGB", (800, 600))
    draw = ImageDraw.Draw(background)
    for y in range(0, 600, 6):
        draw.rectangle((0, y, 800, y + 6), fill=(90 + y % 97, 120 + (y * 3) % 80, 140 + (y * 7) % 60))
    return render_meme(background, default_boxes(2), ["one does not simply", "walk into mordor"]).image


def halved(data: bytes) -> bytes:
    return data[: len(data) // 2]


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_of_zeros(width: int, height: int, rows: int | None = None) -> bytes:
    """A grey PNG of any size, written row by row without ever holding the pixels:
    ``rows`` short of ``height`` leaves the header's promise unkept."""
    packer = zlib.compressobj(9)
    row = b"\x00" * (width + 1)  # filter byte, then one byte a pixel
    data = b"".join(packer.compress(row) for _ in range(height if rows is None else rows)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    ending = png_chunk(b"IEND", b"") if rows is None else b""
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", data) + ending


def zip_archive() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("index.html", PAYLOAD)
    return buffer.getvalue()


def gif_js_polyglot() -> bytes:
    """A GIF that is also a script: its width, 10,799 px, is the bytes "/*", which
    opens a JavaScript comment that the tail closes before the payload."""
    gif = encoded(Image.new("P", (0x2A2F, 2160), 3), "GIF")
    assert gif[6:8] == b"/*"
    return gif + b"*/=window.__pwned=1;"


def png_with_comment(text: str) -> bytes:
    info = PngImagePlugin.PngInfo()
    info.add_text("comment", text)
    return encoded(captioned(), "PNG", pnginfo=info)


SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" onload="window.__pwned=1">'
    b"<script>window.__pwned=1</script><rect width='400' height='300'/></svg>"
)
HTML = b"<!doctype html><html><body>" + PAYLOAD + b"</body></html>\n" * 40


@dataclass(frozen=True)
class Hostile:
    filename: str
    data: Callable[[], bytes]
    refused_with: str = ""  # the message naming the problem; empty: taken, re-encoded
    blank: bool = False  # a picture without a caption: the captioned-meme path refuses it


HOSTILE = {
    "empty": Hostile("empty.jpg", lambda: b"", "The submitted file is empty"),
    "truncated JPEG": Hostile(
        "half.jpg", lambda: halved(encoded(captioned(), "JPEG")), "damaged or truncated"
    ),
    "truncated PNG": Hostile("half.png", lambda: halved(encoded(captioned(), "PNG")), "damaged or truncated"),
    "decompression bomb": Hostile("bomb.png", lambda: png_of_zeros(12_000, 12_000), "too large"),
    "bomb under Pillow's own limit": Hostile("bomb.png", lambda: png_of_zeros(8_000, 8_000), "too large"),
    "20,000×20,000 header": Hostile(
        "huge.png", lambda: png_of_zeros(20_000, 20_000, rows=4), "too large to decode safely"
    ),
    "20 MB file": Hostile(
        "big.jpg", lambda: encoded(captioned(), "JPEG") + bytes(20 * 1024 * 1024), "the limit is 10 MB"
    ),
    "SVG with script": Hostile("logo.svg", lambda: SVG, "SVG is not accepted"),
    "HTML named .jpg": Hostile("photo.jpg", lambda: HTML, "not a supported image"),
    "JPEG with an HTML tail": Hostile("tail.jpg", lambda: encoded(captioned(), "JPEG") + PAYLOAD),
    "JPEG with a ZIP tail": Hostile("zip.jpg", lambda: encoded(captioned(), "JPEG") + zip_archive()),
    "JPEG with script in its comment": Hostile(
        "comment.jpg", lambda: encoded(captioned(), "JPEG", comment=PAYLOAD)
    ),
    "PNG with a 70 kB comment": Hostile("comment.png", lambda: png_with_comment(PAYLOAD.decode() * 2000)),
    "GIF/JS polyglot": Hostile("polyglot.gif", gif_js_polyglot, blank=True),
    "PNG named .gif": Hostile("really-a-png.gif", lambda: encoded(captioned(), "PNG")),
}

# --- the upload paths ------------------------------------------------------------

FORM = {
    "name": "Hostile",
    "slug": "hostile",
    "boxes": '[{"anchor_x": 0, "anchor_y": 0, "scale_x": 1, "scale_y": 0.25}]',
    "mark_position": "bottom-right",
    "is_active": "on",
}


def add_form(curator: Client, upload: SimpleUploadedFile) -> Any:
    return curator.post("/admin/feed/template/add/", {**FORM, "image": upload})


def change_form(curator: Client, upload: SimpleUploadedFile) -> Any:
    template = Template.objects.get(slug="existing")
    fields = {**FORM, "name": "Existing", "slug": "existing", "image": upload}
    return curator.post(f"/admin/feed/template/{template.pk}/change/", fields)


def captioned_meme_page(curator: Client, upload: SimpleUploadedFile) -> Any:
    return curator.post("/admin/feed/template/from-meme/", {"name": "Hostile", "image": upload})


PATHS = {
    "template add form": add_form,
    "template change form": change_form,
    "captioned meme": captioned_meme_page,
}


@pytest.fixture
def curator(client: Client, staff: User) -> Client:
    client.force_login(staff)
    return client


def stored_files(media: Path) -> dict[str, bytes]:
    return {str(path.relative_to(media)): path.read_bytes() for path in media.rglob("*") if path.is_file()}


def expect_refusal(response: Any, message: str) -> None:
    assert response.status_code == 200 or 400 <= response.status_code < 500, response.status_code
    page = response.content.decode()
    assert 'class="errorlist' in page and message in page, page[page.find("errorlist") - 200 :][:800]


def expect_re_encoded(response: Any, new_files: dict[str, bytes]) -> None:
    assert response.status_code == 302, response.content.decode()[:2000]
    (name, data), *others = new_files.items()
    assert not others, list(new_files)
    assert name.startswith(("templates/", "pending-templates/")) and name.endswith(".jpg")
    assert data[:2] == b"\xff\xd8" and data[-2:] == b"\xff\xd9", "not a JPEG written by us, or a tail"
    assert MARK not in data and b"PK\x03\x04" not in data


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("kind", list(HOSTILE))
def test_a_hostile_upload_is_refused_or_stored_re_encoded(
    curator: Client, media_in_tmp: Path, kind: str, path: str
) -> None:
    hostile = HOSTILE[kind]
    if path == "captioned meme" and not hostile.refused_with and shutil.which("tesseract") is None:
        pytest.skip("reading a caption needs Debian's tesseract-ocr")
    existing = make_template("existing")
    before_files, before_rows = stored_files(media_in_tmp), Template.objects.count()
    existing_image = existing.image.name

    response = PATHS[path](curator, SimpleUploadedFile(hostile.filename, hostile.data()))

    new_files = {name: data for name, data in stored_files(media_in_tmp).items() if name not in before_files}
    refusal = hostile.refused_with or (
        "no readable text" if path == "captioned meme" and hostile.blank else ""
    )
    if refusal:
        expect_refusal(response, refusal)
        assert not new_files and Template.objects.count() == before_rows
    else:
        expect_re_encoded(response, new_files)
    assert stored_files(media_in_tmp).items() >= before_files.items(), "a stored file changed"
    if refusal or path != "template change form":
        assert Template.objects.get(pk=existing.pk).image.name == existing_image
