"""The theme is on <html data-theme> from the server, so a page never flashes
the wrong colours; the how-to panel shows on a reader's first visit only."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template, UserSettings


def test_the_theme_is_rendered_by_the_server(client: Client, alice: User) -> None:
    client.force_login(alice)
    assert '<html lang="en" data-theme="system">' in client.get("/").content.decode()
    UserSettings.objects.filter(user=alice).update(theme="dark")
    for path in ("/", "/favourites/", "/make/"):
        assert 'data-theme="dark"' in client.get(path).content.decode(), path


def test_the_howto_shows_on_the_first_visit_only(client: Client, alice: User) -> None:
    client.force_login(alice)
    first = client.get("/").content.decode()
    second = client.get("/").content.decode()
    assert 'id="howto" aria-labelledby="howto-title">' in first
    assert 'id="howto" aria-labelledby="howto-title" hidden>' in second
    assert UserSettings.objects.get(user=alice).howto_seen


def test_the_settings_menu_remembers_choices(client: Client, alice: User, template: Template) -> None:
    UserSettings.objects.create(user=alice, theme="light", preferred_template=template)
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert '<input type="radio" name="theme" value="light" checked>' in page
    assert '<option value="success" selected>Success</option>' in page
