"""The site serves media without the Content-Disposition header Django's file response adds:
that header would override the name a page's download link gives the file ("drake-12.jpg")."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from tests.conftest import make_template
from tests.feed_data import pictured_meme


@pytest.mark.django_db
def test_a_meme_image_goes_out_without_a_file_name(client: Client, media_in_tmp: Path) -> None:
    meme = pictured_meme(make_template("success"), ["top", "bottom"], "teal")
    response = client.get(meme.image.url)
    assert response.status_code == 200
    assert "Content-Disposition" not in response
