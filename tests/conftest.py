"""Shared cast and helpers: alice, bob and charlie read the feed; staff curates."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from feed.models import Meme, Template
from generation.layout import boxes_to_json, default_boxes

PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True, scope="session")
def tasks_run_inline() -> None:
    """Unit tests run Celery tasks in the test process; integration tests
    that start real workers switch this off for themselves."""
    from memesite.celery import app

    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True


@pytest.fixture(autouse=True)
def media_in_tmp(settings: Any, tmp_path: Path) -> Path:
    media: Path = tmp_path / "media"
    settings.MEDIA_ROOT = media
    return media


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", "alice@example.com", PASSWORD)


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", "bob@example.com", PASSWORD)


@pytest.fixture
def charlie(db: None) -> User:
    return User.objects.create_user("charlie", "charlie@example.com", PASSWORD)


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_superuser("staff", "staff@example.com", PASSWORD)


@pytest.fixture
def clerk(db: None) -> User:
    """Staff without model permissions: the admin lets them in and shows them nothing."""
    return User.objects.create_user("clerk", "clerk@example.com", PASSWORD, is_staff=True)


def jpeg_bytes(width: int = 400, height: int = 300, color: str = "steelblue") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, "JPEG")
    return buffer.getvalue()


def make_template(slug: str = "success", boxes: int = 2, **fields: Any) -> Template:
    template = Template(
        name=fields.pop("name", slug.title()),
        slug=slug,
        boxes=boxes_to_json(default_boxes(boxes)),
        **fields,
    )
    template.image.save(f"{slug}.jpg", ContentFile(jpeg_bytes()), save=False)
    template.save()
    return template


def post_template_form(curator: Client, boxes: str, follow: bool = False, **fields: Any) -> Any:
    """The admin's add-template form, posted with a fresh image, ``boxes`` (JSON) and ``fields``."""
    form = {
        "name": "Success",
        "slug": "success",
        "image": SimpleUploadedFile("s.jpg", jpeg_bytes()),
        "boxes": boxes,
        "mark_position": "bottom-right",
        **fields,
    }
    return curator.post("/admin/feed/template/add/", form, follow=follow)


def make_meme(template: Template, texts: list[str] | None = None, **fields: Any) -> Meme:
    fields.setdefault("status", Meme.Status.READY)
    return Meme.objects.create(template=template, texts=texts or ["top text", "bottom text"], **fields)


@pytest.fixture
def template(db: None) -> Template:
    return make_template()


@pytest.fixture
def caption_model() -> Iterator[Any]:
    """Every pipeline call in the test uses a fake caption model."""
    from generation import jobs
    from tests.fakes import FakeCaptionModel

    fake = FakeCaptionModel()
    jobs.use_caption_model(fake)
    yield fake
    jobs.use_caption_model(None)
