"""The site run as the README's production section runs it (`bin/serve setup`,
then `bin/serve web`: gunicorn, DEBUG off, PostgreSQL, Redis) serves every
image it names: a meme's in the API and as its permalink's og:image, its
lighter copies (the API's variants, the permalink's srcset), a template's in
the API; a meme's files for browsers only, a year. Once staff hide the meme,
its image and every copy are a 404 there too. The page's scripts have hashed
names and are kept for good."""

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
    status, headers, body = fetch_with_headers(url)
    return status, headers.get("Content-Type", ""), body


def fetch_with_headers(url: str) -> tuple[int, dict[str, str], bytes]:
    parts = urlsplit(url)
    client = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=15)
    try:
        client.request("GET", parts.path)
        response = client.getresponse()
        return response.status, dict(response.getheaders()), response.read()
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

    item = json.loads(site.ask("GET", f"/api/memes/{meme.pk}/", token).body)
    meme_image, copies = item["image"], [variant["url"] for variant in item["variants"]]
    [listed] = json.loads(site.ask("GET", "/api/templates/", token).body)
    status, _, page = fetch(f"{origin}/m/{meme.pk}/")
    og_image = re.search(r'<meta property="og:image" content="([^"]+)"', page.decode())
    assert status == 200 and og_image is not None
    assert og_image.group(1) == meme_image == f"{origin}/media/{meme.image.name}"
    assert len(copies) == 2 and all(f"{copy} " in page.decode() for copy in copies), "the srcset offers them"
    for copy in copies:
        status, headers, _ = fetch_with_headers(copy)
        assert (status, headers["Content-Type"]) == (200, "image/webp"), copy
        assert headers["Cache-Control"] == "private, max-age=31536000, immutable"
    script = re.search(r'<script type="module" src="(/static/js/site\.[0-9a-f]{12}\.js)"', page.decode())
    assert script is not None, "the page names its script by a hashed name"
    status, headers, _ = fetch_with_headers(origin + script.group(1))
    assert status == 200 and "immutable" in headers["Cache-Control"]

    for url, path in ((meme_image, meme.image.path), (listed["image"], template.image.path)):
        status, content_type, body = fetch(url)
        assert (status, content_type) == (200, "image/jpeg"), url
        assert body == Path(path).read_bytes()

    assert site.ask("PUT", f"/api/memes/{meme.pk}/hidden/", token).status == 200
    assert fetch(meme_image)[0] == 404
    assert [fetch(copy)[0] for copy in copies] == [404, 404]
    assert fetch(listed["image"])[0] == 200
