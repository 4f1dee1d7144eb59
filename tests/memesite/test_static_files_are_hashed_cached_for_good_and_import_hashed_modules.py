"""With the production settings (DEBUG off, `collectstatic` as `bin/serve setup`
runs it), every static file a page names has a content hash in its name and is
served with a long-lived, immutable Cache-Control; the pages' ES modules import
each other under those hashed names, so a page's whole module graph is cached
for good and never mixes two releases."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.memesite.test_settings_fail_loudly_on_bad_values import PRODUCTION, run

IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")
PAGE_SCRIPTS = ("js/site.js", "js/feed.js", "js/make.js")

HEADERS = """
import json
from django.contrib.staticfiles.storage import staticfiles_storage
from django.test import Client
client, answers = Client(), {}
for name in %r:
    url = staticfiles_storage.url(name)
    answer = client.get(url, secure=True)
    answers[name] = [url, answer.status_code, answer.get("Cache-Control")]
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("static")
    env = {**PRODUCTION, "STATIC_ROOT": str(root), "MEMESITE_VAR_DIR": str(root.parent / "var")}
    result = run(["collectstatic", "--no-input", "-v0"], **env)
    assert result.returncode == 0, result.stderr
    return env


def test_every_module_imports_the_hashed_name_of_a_file_that_exists(collected: dict[str, str]) -> None:
    root = Path(collected["STATIC_ROOT"])
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    for name in [name for name in manifest if name.startswith("js/")]:
        hashed = root / manifest[name]
        for target in IMPORT.findall(hashed.read_text(encoding="utf-8")):
            imported = (hashed.parent / target).resolve()
            plain = imported.relative_to(root.resolve()).as_posix()
            assert plain in manifest.values(), f"{manifest[name]} imports {target}, not a hashed name"
            assert imported.is_file(), f"{manifest[name]} imports {target}, which is missing"


def test_the_pages_scripts_are_hashed_and_kept_a_year_or_more_by_anyone(collected: dict[str, str]) -> None:
    result = run(["shell", "-c", HEADERS % ((*PAGE_SCRIPTS, "css/site.css"),)], **collected)
    assert result.returncode == 0, result.stderr
    for name, (url, status, cache_control) in json.loads(result.stdout.splitlines()[-1]).items():
        assert re.search(r"\.[0-9a-f]{12}\.", url), f"{name} is served as {url}, without a hash"
        assert status == 200, url
        directives = dict(part.strip().partition("=")[::2] for part in cache_control.split(","))
        assert "public" in directives and "immutable" in directives, cache_control
        assert int(directives["max-age"]) >= 31_536_000, cache_control
