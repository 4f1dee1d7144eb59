"""The feed calls generation.services.reader_is_running_low(reader, template) when the
page it serves leaves fewer than 10 ready memes the reader has not been
served, and memes made after that reach the reader on the next pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed import api
from feed.models import Template
from tests.conftest import make_template
from tests.feed_data import bulk_memes


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any]]:
    made: list[tuple[Any, Any]] = []
    monkeypatch.setattr(api, "reader_is_running_low", lambda user, template: made.append((user, template)))
    return made


def test_no_call_while_ten_or_more_are_left(
    client: Client, alice: User, template: Template, calls: list[Any]
) -> None:
    bulk_memes(template, 20)
    client.force_login(alice)
    page = client.get("/api/feed/?page_size=10").json()  # 10 served, 10 left
    assert len(page["results"]) == 10 and calls == []


def test_a_call_when_fewer_than_ten_are_left(
    client: Client, alice: User, template: Template, calls: list[Any]
) -> None:
    bulk_memes(template, 19)
    client.force_login(alice)
    client.get("/api/feed/?page_size=10")  # 9 left
    assert calls == [(alice, None)]


def test_the_call_names_the_template_the_reader_chose(client: Client, alice: User, calls: list[Any]) -> None:
    chosen = make_template("chosen")
    bulk_memes(chosen, 3)
    bulk_memes(make_template("other"), 30)
    client.force_login(alice)
    client.get("/api/feed/?template=chosen")
    assert calls == [(alice, chosen)]


def test_memes_made_after_running_low_reach_the_reader(
    client: Client, alice: User, template: Template, calls: list[Any]
) -> None:
    first = bulk_memes(template, 12)
    client.force_login(alice)
    page = client.get("/api/feed/?page_size=10").json()
    assert len(calls) == 1
    made_meanwhile = bulk_memes(template, 15)  # what the pipeline made for alice
    served = [item["id"] for item in page["results"]]
    url = page["next"]
    while (page := client.get(url).json())["results"]:
        served += [item["id"] for item in page["results"]]
        url = page["next"]
    assert sorted(served) == sorted(meme.pk for meme in first + made_meanwhile)


def test_an_empty_feed_asks_and_keeps_its_place(
    client: Client, alice: User, template: Template, calls: list[Any]
) -> None:
    client.force_login(alice)
    page = client.get("/api/feed/").json()
    assert page["results"] == [] and page["next"] and len(calls) == 1
    bulk_memes(template, 3)
    assert len(client.get(page["next"]).json()["results"]) == 3
