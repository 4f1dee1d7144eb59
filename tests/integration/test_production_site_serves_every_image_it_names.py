"""The site run as the README's production section runs it (`bin/serve setup`,
then `bin/serve web`: gunicorn, DEBUG off, PostgreSQL, Redis) serves every
image it names: a meme's in the API and as its permalink's og:image, a
template's in the API. Once staff hide the meme, its image is a 404 there too."""

from __future__ import annotations

import http.client
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from feed.models import Meme
from generation import jobs
from tests.conftest import make_meme, make_template
from tests.integration.conftest import ROOT, Site

pytestmark = pytest.mark.integration


def fetch(url: str) -> tuple[int, str, bytes]:
    """Status, content type and body of a GET to an absolute URL of the site."""
    parts = urlsplit(url)
    client = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=15)
    try:
        client.request("GET", parts.path)
        response = client.getresponse()
        return response.status, response.getheader("Content-Type") or "", response.read()
    finally:
        client.close()


def test_every_image_the_site_names_is_served_until_the_meme_is_hidden(
    start_site: Callable[..., Site], production_env: dict[str, str], media_in_tmp: Path, staff: User
) -> None:
    setup = subprocess.run(
        [ROOT / "bin" / "serve", "setup"], cwd=ROOT, env=production_env, capture_output=True, text=True
    )
    assert setup.returncode == 0, setup.stdout + setup.stderr
    template = make_template()
    meme = make_meme(template, status=Meme.Status.QUEUED)
    assert jobs.render_memes([meme.pk]) == 1  # the real renderer writes the file, as a worker does
    meme.refresh_from_db()
    site = start_site()
    token = Token.objects.create(user=staff).key
    origin = f"http://{site.host}:{site.port}"

    meme_image = json.loads(site.ask("GET", f"/api/memes/{meme.pk}/", token).body)["image"]
    [listed] = json.loads(site.ask("GET", "/api/templates/", token).body)
    status, _, page = fetch(f"{origin}/m/{meme.pk}/")
    og_image = re.search(r'<meta property="og:image" content="([^"]+)"', page.decode())
    assert status == 200 and og_image is not None
    assert og_image.group(1) == meme_image == f"{origin}/media/{meme.image.name}"

    for url, path in ((meme_image, meme.image.path), (listed["image"], template.image.path)):
        status, content_type, body = fetch(url)
        assert (status, content_type) == (200, "image/jpeg"), url
        assert body == Path(path).read_bytes()

    assert site.ask("PUT", f"/api/memes/{meme.pk}/hidden/", token).status == 200
    assert fetch(meme_image)[0] == 404
    assert fetch(listed["image"])[0] == 200
