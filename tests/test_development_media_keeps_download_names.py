"""While DEBUG is on the site serves media itself, without the
Content-Disposition header Django's file response adds: that header would
override the name a page's download link gives the file."""

from __future__ import annotations

from pathlib import Path

from django.test import RequestFactory

from memesite.urls import development_media


def test_media_goes_out_without_a_file_name(rf: RequestFactory, media_in_tmp: Path) -> None:
    (media_in_tmp / "memes").mkdir(parents=True)
    (media_in_tmp / "memes" / "a1b2.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    response = development_media(rf.get("/media/memes/a1b2.jpg"), "memes/a1b2.jpg")
    assert response.status_code == 200
    assert "Content-Disposition" not in response
