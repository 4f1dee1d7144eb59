"""The OpenAPI schema lists every endpoint and validates with no warnings;
the interactive docs are served from our own static files with no inline
script (the CSP allows none)."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.management import call_command
from django.test import Client
from drf_spectacular.drainage import GENERATOR_STATS


def test_the_schema_lists_the_feed_api(client: Client, db: None) -> None:
    schema = client.get("/api/schema/?format=json").json()
    paths = set(schema["paths"])
    assert {
        "/api/feed/",
        "/api/memes/{meme_id}/",
        "/api/memes/{meme_id}/reaction/",
        "/api/memes/{meme_id}/favourite/",
        "/api/memes/{meme_id}/report/",
        "/api/favourites/",
        "/api/templates/",
        "/api/me/settings/",
    } <= paths
    feed_item = schema["components"]["schemas"]["FeedItem"]["properties"]
    assert {"id", "url", "image", "width", "height", "alt", "my_reaction", "favourited"} <= set(feed_item)


def test_the_docs_page_uses_only_our_own_scripts(client: Client, db: None) -> None:
    page = client.get("/api/docs/").content.decode()
    scripts = re.findall(r"<script([^>]*)>", page)
    assert scripts and all("src=" in attributes for attributes in scripts)
    assert "http://" not in page.replace("http://testserver", "") and "cdn" not in page.lower()


def test_the_schema_validates_with_no_warnings(tmp_path: Path, db: None) -> None:
    # drf-spectacular counts warnings per process: count this generation's only.
    GENERATOR_STATS.reset()
    # --fail-on-warn turns any warning or error into a failure; --validate checks against the OpenAPI spec.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
