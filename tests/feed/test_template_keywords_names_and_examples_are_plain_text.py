"""Curators type keywords (separated by commas), other names (one a line) and
example captions (one a line, boxes split by |) as plain text; the database
keeps them as JSON lists, and the form shows them back as the same text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from tests.conftest import make_template, post_template_form

BOXES = json.dumps([{"anchor_x": 0, "anchor_y": 0, "scale_x": 1, "scale_y": 0.2}, {"anchor_y": 0.8}])


@pytest.fixture
def curator(client: Client, staff: User) -> Client:
    client.force_login(staff)
    return client


def add(curator: Client, **fields: Any) -> Any:
    return post_template_form(curator, BOXES, **fields)


def test_plain_text_is_stored_as_lists(curator: Client) -> None:
    response = add(
        curator,
        keywords="sandcastle, win,\n  beach  day ,win",
        alternative_names="Motivation Baby\n\nSuccess   Baby\n",
        example_captions="fixed the bug | on the first try\nwent to the gym\n   \nno | it's | three boxes",
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    template = Template.objects.get(slug="success")
    assert template.keywords == ["sandcastle", "win", "beach day"]
    assert template.alternative_names == ["Motivation Baby", "Success Baby"]
    assert template.example_captions == [
        ["fixed the bug", "on the first try"],
        ["went to the gym"],
        ["no", "it's", "three boxes"],
    ]


def test_the_form_shows_the_lists_as_the_text_they_came_from(curator: Client) -> None:
    template = make_template(
        keywords=["sandcastle", "beach day"],
        alternative_names=["Motivation Baby", "Success Baby"],
        example_captions=[["fixed the bug", "on the first try"], ["went to the gym"]],
    )
    page = curator.get(f"/admin/feed/template/{template.pk}/change/").content.decode()
    assert 'id="id_keywords">\nsandcastle, beach day</textarea>' in page
    assert 'id="id_alternative_names">\nMotivation Baby\nSuccess Baby</textarea>' in page
    assert 'id="id_example_captions">\nfixed the bug | on the first try\nwent to the gym</textarea>' in page


def test_saving_the_text_shown_changes_nothing(curator: Client) -> None:
    template = make_template(
        boxes=2,
        keywords=["sandcastle", "beach day"],
        alternative_names=["Motivation Baby"],
        example_captions=[["fixed the bug", "on the first try"]],
    )
    before = Template.objects.values().get(pk=template.pk)
    response = curator.post(
        f"/admin/feed/template/{template.pk}/change/",
        {
            "name": template.name,
            "slug": template.slug,
            "is_active": "on",
            "boxes": json.dumps(template.boxes),
            "mark_position": template.mark_position,
            "keywords": "sandcastle, beach day",
            "alternative_names": "Motivation Baby",
            "example_captions": "fixed the bug | on the first try",
        },
    )
    assert response.status_code == 302
    after = Template.objects.values().get(pk=template.pk)
    assert {k: v for k, v in after.items() if k != "updated_at"} == {
        k: v for k, v in before.items() if k != "updated_at"
    }


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("keywords", "x" * 201, "Line 1: over 200 characters"),
        ("keywords", ", ".join(f"k{n}" for n in range(51)), "At most 50 entries, not 51"),
        ("alternative_names", "fine\n" + "y" * 201, "Line 2: over 200 characters"),
        ("example_captions", "|".join("abcdefghijk"), "Line 1: a caption has at most 10 box texts, not 11"),
        ("example_captions", "ok\nshort | " + "z" * 201, "Line 2, box 2: over 200 characters"),
    ],
)
def test_text_past_the_limits_is_refused_naming_the_line(
    curator: Client, field: str, text: str, message: str
) -> None:
    response = add(curator, **{field: text})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Template.objects.exists()
