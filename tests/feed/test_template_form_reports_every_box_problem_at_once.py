"""A bad box list is answered with every problem at once, each naming its box,
and with nothing else: no second error about the boxes the form did not take."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from feed.models import Template
from generation.layout import LayoutError, parse_boxes
from tests.conftest import jpeg_bytes, make_template

BAD_BOXES = [
    {"anchor_x": 0, "anchor_y": 0, "scale_x": 1, "scale_y": 0.2},
    {"anchor_x": 1.5, "anchor_y": 0.1, "scale_x": 0.5, "scale_y": 0.2},
    {"anchor_x": 0, "anchor_y": 0.5, "color": "blu", "font": "wingdings", "size": 12},
]
PROBLEMS = [
    "Box 2: anchor_x must be a fraction of the image in [0, 1], not 1.5",
    "Box 3: unknown setting(s) size",
    "Box 3: color 'blu' is not a colour (a name such as white, or #hex)",
    "Box 3: unknown font 'wingdings'; choose one of thick, thin, comic, notosans",
]


@pytest.fixture
def curator(client: Client, staff: User) -> Client:
    client.force_login(staff)
    return client


def errors_for_boxes(page: str) -> list[str]:
    """The messages the admin lists against the boxes field."""
    row = page[page.index('class="form-row errors field-boxes"') :]
    listed = row[: row.index("</ul>")]
    return [re.sub(r"&#x27;", "'", item) for item in re.findall(r"<li>(.*?)</li>", listed)]


def test_the_schema_names_every_problem_of_every_box() -> None:
    with pytest.raises(LayoutError) as raised:
        parse_boxes(BAD_BOXES)
    assert raised.value.problems == PROBLEMS
    assert str(raised.value) == "; ".join(PROBLEMS)


def test_adding_a_template_lists_every_problem_and_nothing_more(curator: Client) -> None:
    response = curator.post(
        "/admin/feed/template/add/",
        {
            "name": "Bad Boxes",
            "slug": "bad-boxes",
            "image": SimpleUploadedFile("new.jpg", jpeg_bytes()),
            "boxes": json.dumps(BAD_BOXES),
            "mark_position": "bottom-right",
        },
    )
    assert response.status_code == 200
    assert errors_for_boxes(response.content.decode()) == PROBLEMS
    assert not Template.objects.exists()


def test_changing_a_template_lists_every_problem_and_keeps_the_saved_boxes(curator: Client) -> None:
    template = make_template(boxes=2)
    response = curator.post(
        f"/admin/feed/template/{template.pk}/change/",
        {
            "name": template.name,
            "slug": template.slug,
            "boxes": json.dumps(BAD_BOXES),
            "mark_position": "bottom-right",
        },
    )
    assert errors_for_boxes(response.content.decode()) == PROBLEMS
    template.refresh_from_db()
    assert len(template.boxes) == 2


def test_boxes_that_are_not_json_get_one_message(curator: Client) -> None:
    response = curator.post(
        "/admin/feed/template/add/",
        {
            "name": "N",
            "slug": "n",
            "image": SimpleUploadedFile("new.jpg", jpeg_bytes()),
            "boxes": "[{anchor_x",
        },
    )
    assert errors_for_boxes(response.content.decode()) == ["Enter a valid JSON."]
