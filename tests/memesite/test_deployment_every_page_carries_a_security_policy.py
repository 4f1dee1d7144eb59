"""Every page the site serves, error pages and the admin included, carries a
content security policy that allows only the site's own scripts."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from tests.conftest import make_meme

PAGES = [
    "/",
    "/favourites/",
    "/make/",
    "/insights/",
    "/admin/",
    "/admin/feed/template/",
    "/api/docs/",
    "/api/feed/",
    "/no-such-page/",
]


def script_sources(policy: str) -> list[str]:
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    return directives["script-src"].split()


@pytest.mark.parametrize("path", PAGES)
def test_the_page_allows_only_our_own_scripts(client: Client, staff: User, path: str) -> None:
    client.force_login(staff)
    response = client.get(path)
    assert response.status_code in (200, 404), response.status_code
    assert script_sources(response["Content-Security-Policy"]) == ["'self'"]
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/", "/m/{meme}/"])
def test_signed_out_pages_carry_the_policy(client: Client, template: Template, path: str) -> None:
    response = client.get(path.format(meme=make_meme(template).pk))
    assert response.status_code == 200
    assert script_sources(response["Content-Security-Policy"]) == ["'self'"]
