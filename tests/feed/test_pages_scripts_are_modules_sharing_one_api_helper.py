"""The pages' scripts are ES modules (no build step, no globals): one module,
static/js/api.js, holds the fetch-with-CSRF helper and the refusal messages,
and feed.js, make.js and site.js import it. Module scripts run under the CSP's
``script-src 'self'`` like any other script file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from tests.conftest import make_meme

SCRIPTS = Path(__file__).resolve().parents[2] / "static" / "js"
SCRIPT_TAG = re.compile(r"<script\b[^>]*>")


@pytest.mark.parametrize("path", ["/", "/favourites/", "/make/", "/m/{meme}/"])
@pytest.mark.parametrize("signed_in", [True, False])
def test_every_page_script_is_a_module_file(
    client: Client, alice: User, template: Template, path: str, signed_in: bool
) -> None:
    if signed_in:
        client.force_login(alice)
    response = client.get(path.format(meme=make_meme(template).pk), follow=True)
    tags = SCRIPT_TAG.findall(response.content.decode())
    assert tags, path
    assert all('type="module"' in tag and " src=" in tag for tag in tags), tags


def test_only_the_api_module_talks_to_the_server() -> None:
    for path in SCRIPTS.glob("*.js"):
        source = path.read_text()
        if path.name == "api.js":
            assert "X-CSRFToken" in source and "fetch(" in source
            continue
        assert "fetch(" not in source and "csrftoken" not in source.lower(), path.name


@pytest.mark.parametrize("name", ["feed.js", "make.js", "site.js"])
def test_the_pages_import_the_api_module(name: str) -> None:
    assert re.search(r'^import \{[^}]*\bapi\b[^}]*\} from "\./api\.js";$', (SCRIPTS / name).read_text(), re.M)


def test_no_script_sets_a_global() -> None:
    for path in SCRIPTS.glob("*.js"):
        source = path.read_text()
        assert not re.search(r"window\.\w+\s*=[^=]", source), path.name
        assert '"use strict"' not in source, f"{path.name}: modules are strict already"
