"""The client's address, as every part of the site reads it (memesite.addresses):
X-Forwarded-For counts only when the peer that connected is a trusted proxy,
and then only the addresses the trusted proxies appended."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from memesite.addresses import client_address

PROXY = "10.0.0.2"
INNER_PROXY = "10.0.0.3"
ALICE = "203.0.113.5"


@pytest.fixture(autouse=True)
def behind_the_proxy(settings: Any) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.0/30"]


def address(peer: str, forwarded: str | None = None) -> str:
    headers = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().get("/", **headers))  # type: ignore[arg-type]


def test_from_the_trusted_proxy_the_address_it_appended_is_the_client() -> None:
    assert address(PROXY, ALICE) == ALICE


def test_from_an_untrusted_peer_the_header_is_ignored() -> None:
    assert address("198.51.100.9", ALICE) == "198.51.100.9"


def test_with_no_trusted_proxy_configured_the_header_is_ignored(settings: Any) -> None:
    settings.TRUSTED_PROXIES = []
    assert address(PROXY, ALICE) == PROXY


def test_what_the_client_wrote_left_of_the_proxys_entry_is_never_believed() -> None:
    assert address(PROXY, f"192.0.2.66, {ALICE}") == ALICE


def test_a_chain_of_trusted_proxies_is_walked_to_the_first_untrusted_address() -> None:
    assert address(PROXY, f"192.0.2.66, {ALICE}, {INNER_PROXY}") == ALICE


def test_a_garbled_entry_stops_at_the_last_address_a_proxy_vouched_for() -> None:
    assert address(PROXY, "not-an-address") == PROXY
    assert address(PROXY, f"{ALICE}, bogus, {INNER_PROXY}") == INNER_PROXY


def test_one_address_has_one_spelling() -> None:
    assert address(PROXY, "2001:DB8:0:0:1::1") == "2001:db8::"  # its /64 (test_accounts_ipv6_...)
    assert address("::ffff:10.0.0.2", ALICE) == ALICE


def test_a_proxy_on_a_unix_socket_is_trusted_only_when_listed(settings: Any) -> None:
    assert address("", ALICE) == ""
    settings.TRUSTED_PROXIES = ["unix"]
    assert address("", ALICE) == ALICE


def test_sign_in_failures_are_recorded_under_the_clients_address(client: Client, alice: User) -> None:
    client.post(
        "/accounts/login/",
        {"username": "alice", "password": "nope"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=ALICE,
    )
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == [ALICE]
