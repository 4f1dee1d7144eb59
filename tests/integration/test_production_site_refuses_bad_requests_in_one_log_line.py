"""Under gunicorn with production settings, the requests a client gets wrong
are answered as the API answers every refusal (JSON under /api/) and leave
one warning line each in the log, never an ERROR or a traceback: JSON nested
1,000 deep to the anonymous token endpoint, a Host the site does not serve,
a browser asking the API for HTML."""

from __future__ import annotations

import http.client
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from memesite.parsers import MESSAGE
from tests.integration.conftest import Site

pytestmark = pytest.mark.integration


def ask(site: Site, method: str, path: str, body: str = "", **headers: str) -> tuple[int, str, str]:
    """Status, content type and body, with the headers given (Host among them)."""
    client = http.client.HTTPConnection(site.host, site.port, timeout=15)
    try:
        headers = {"Content-Type": "application/json", **headers}
        client.request(method, path, body=body or None, headers=headers)
        response = client.getresponse()
        return response.status, response.getheader("Content-Type") or "", response.read().decode()
    finally:
        client.close()


def test_bad_requests_get_json_refusals_and_one_log_line_each(
    start_site: Callable[..., Site], tmp_path: Path
) -> None:
    site = start_site({"LOG_LEVEL": "INFO"})
    here = f"{site.host}:{site.port}"

    status, content_type, body = ask(site, "POST", "/api/auth/token/", "[" * 1000 + "]" * 1000, Host=here)
    assert (status, content_type, json.loads(body)) == (400, "application/json", {"detail": MESSAGE})

    status, content_type, body = ask(site, "GET", "/api/templates/", Host="evil.example.com")
    assert (status, content_type, json.loads(body)) == (400, "application/json", {"detail": "Bad request."})
    assert ask(site, "GET", "/", Host="evil.example.com")[0] == 400

    browser = "text/html,application/xhtml+xml,*/*;q=0.8"
    status, content_type, _ = ask(site, "GET", "/api/templates/", Host=here, Accept=browser)
    assert (status, content_type) == (200, "application/json")

    log = (tmp_path / "gunicorn-0.log").read_text()
    assert "Traceback" not in log and " ERROR " not in log, log
    refusal = "WARNING django.security.DisallowedHost: Invalid HTTP_HOST header: 'evil.example.com'"
    assert log.count(refusal) == 2
