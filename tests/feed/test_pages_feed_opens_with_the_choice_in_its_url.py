"""The feed page opens with the choice its URL holds (``?template=random`` or a
template's slug, and ``?sort=``), so a reload or a shared link shows the same
feed; with no choice in the URL it opens with the reader's preferred template.
The server decides: the toolbar comes with the choice selected."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template, UserSettings
from tests.conftest import make_template


def selected(page: str, select_id: str) -> list[str]:
    """The values of the selected options of the <select> with this id."""
    found = re.search(rf'<select id="{select_id}"[^>]*>(.*?)</select>', page, re.S)
    assert found, f"no #{select_id} on the page"
    return re.findall(r'<option value="([^"]*)" selected>', found[1])


@pytest.fixture
def reader(client: Client, alice: User, template: Template) -> Client:
    """alice prefers Success; Drake is another active template."""
    make_template("drake")
    UserSettings.objects.create(user=alice, preferred_template=template, howto_seen=True)
    client.force_login(alice)
    return client


@pytest.mark.parametrize(
    ("query", "shown", "sort"),
    [
        ("", "success", "hot"),
        ("?template=random", "", "hot"),
        ("?template=drake", "drake", "hot"),
        ("?template=random&sort=new", "", "new"),
        ("?sort=top", "success", "top"),
        ("?template=no-such-template&sort=sideways", "success", "hot"),
    ],
)
def test_the_url_chooses_before_the_preferred_template(
    reader: Client, query: str, shown: str, sort: str
) -> None:
    page = reader.get(f"/{query}").content.decode()
    assert selected(page, "feed-template") == [shown]
    assert selected(page, "feed-sort") == [sort]
    assert 'data-preferred="success"' in page, "feed.js needs the preferred template for back/forward"


def test_a_retired_preferred_template_opens_random(reader: Client, template: Template) -> None:
    Template.objects.filter(pk=template.pk).update(is_active=False)
    page = reader.get("/").content.decode()
    assert selected(page, "feed-template") == [""]
    assert 'data-preferred=""' in page


def test_a_reader_without_settings_opens_random(client: Client, bob: User, template: Template) -> None:
    client.force_login(bob)
    assert selected(client.get("/").content.decode(), "feed-template") == [""]


def test_the_browser_is_not_asked_to_restore_old_choices(reader: Client) -> None:
    page = reader.get("/?template=random").content.decode()
    assert '<select id="feed-template" autocomplete="off">' in page
    assert '<select id="feed-sort" autocomplete="off">' in page
