"""A reader's settings (theme, preferred template, how-to seen) are stored on
the server: they follow the reader to any device and any later sign-in."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from tests.conftest import make_template


def test_settings_start_from_defaults(client: Client, alice: User) -> None:
    client.force_login(alice)
    assert client.get("/api/me/settings/").json() == {
        "theme": "system",
        "preferred_template": None,
        "howto_seen": False,
    }


def test_changes_persist_across_sign_ins(client: Client, alice: User, template: Template) -> None:
    client.force_login(alice)
    changed = client.patch(
        "/api/me/settings/",
        {"theme": "dark", "preferred_template": "success"},
        content_type="application/json",
    )
    assert changed.status_code == 200
    client.logout()
    other_device = Client()
    other_device.force_login(alice)
    assert other_device.get("/api/me/settings/").json()["theme"] == "dark"
    assert 'data-theme="dark"' in other_device.get("/favourites/").content.decode()
    cleared = other_device.patch(
        "/api/me/settings/", {"preferred_template": None}, content_type="application/json"
    )
    assert cleared.json()["preferred_template"] is None


def test_bad_settings_say_why(client: Client, alice: User) -> None:
    make_template("retired", is_active=False)
    client.force_login(alice)
    for body, field in (
        ({"theme": "neon"}, "theme"),
        ({"preferred_template": "retired"}, "preferred_template"),
    ):
        response = client.patch("/api/me/settings/", body, content_type="application/json")
        assert response.status_code == 400 and response.json()[field]
