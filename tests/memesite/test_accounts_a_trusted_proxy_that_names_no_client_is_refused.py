"""A request from a trusted proxy without X-Forwarded-For is refused with a
500 and an error in the log naming the fix: counted under the proxy's address,
every visitor would share one sign-in lock-out. Requests that name their
client, and any request when no proxy is trusted, go through."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

PROXY = "10.0.0.2"


@pytest.fixture(autouse=True)
def behind_the_proxy(settings: Any) -> None:
    settings.TRUSTED_PROXIES = [PROXY]


def test_a_page_from_the_proxy_without_the_header_is_a_500_that_names_the_fix(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    response = client.get("/accounts/login/", REMOTE_ADDR=PROXY)
    assert response.status_code == 500
    assert "proxy_set_header X-Forwarded-For" in caplog.text and "TRUSTED_PROXIES" in caplog.text


def test_the_api_answers_the_same_refusal_in_json(client: Client) -> None:
    response = client.post("/api/auth/token/", {}, "application/json", REMOTE_ADDR=PROXY)
    assert response.status_code == 500
    assert "misconfigured" in response.json()["detail"]


def test_a_request_naming_its_client_goes_through(client: Client) -> None:
    response = client.get("/accounts/login/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert response.status_code == 200


def test_other_peers_and_a_site_with_no_proxy_need_no_header(client: Client, settings: Any) -> None:
    assert client.get("/accounts/login/", REMOTE_ADDR="203.0.113.5").status_code == 200
    settings.TRUSTED_PROXIES = []
    assert client.get("/accounts/login/", REMOTE_ADDR=PROXY).status_code == 200
