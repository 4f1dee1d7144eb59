"""A number too large for a float (400 digits) or a colour Pillow reads but cannot
draw (rgb(10^24,0,0)) is a problem naming its box and setting, in the template
admin's form and in the box editor's live preview: the numbers were a 500 in
both, and the colour was saved, after which every render of the template failed."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from tests.conftest import post_template_form

PREVIEW = "/admin/feed/template/preview/"
DIGITS_400 = "9" * 400
BOX = '{"anchor_x": 0, "anchor_y": 0, "scale_x": 1, "scale_y": 0.25}'
CASES = {
    "anchor_x": (
        f'[{BOX}, {{"anchor_x": {DIGITS_400}}}]',
        "Box 2: anchor_x must be a finite number, not one of over 300 digits",
    ),
    "angle": (
        f'[{{"angle": -{DIGITS_400}}}]',
        "Box 1: angle must be a finite number, not one of over 300 digits",
    ),
    "colour": (
        f'[{{"color": "rgb({10**24},0,0)"}}]',
        "Box 1: color 'rgb(1000000000000000000000000,0,0)' is out of range: each channel must be 0 to 255",
    ),
}


@pytest.fixture
def curator(client: Client, staff: User, caplog: pytest.LogCaptureFixture) -> Iterator[Client]:
    client.force_login(staff)
    yield client
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


def errors_for_boxes(page: str) -> list[str]:
    row = page[page.index('class="form-row errors field-boxes"') :]
    listed = row[: row.index("</ul>")]
    return [item.replace("&#x27;", "'") for item in re.findall(r"<li>(.*?)</li>", listed)]


@pytest.mark.parametrize(("boxes", "problem"), CASES.values(), ids=CASES.keys())
def test_the_admin_form_names_the_box_and_setting(curator: Client, boxes: str, problem: str) -> None:
    response = post_template_form(curator, boxes)
    assert response.status_code == 200
    assert errors_for_boxes(response.content.decode()) == [problem]
    assert not Template.objects.exists()


@pytest.mark.parametrize(("boxes", "problem"), CASES.values(), ids=CASES.keys())
def test_the_preview_names_the_box_and_setting(curator: Client, boxes: str, problem: str) -> None:
    body = f'{{"width": 600, "height": 450, "texts": [], "mark_position": "top-left", "boxes": {boxes}}}'
    response = curator.post(PREVIEW, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"problems": [problem]}


def test_a_number_past_pythons_4300_digits_is_not_json_to_either(curator: Client) -> None:
    boxes = f'[{{"anchor_x": {"9" * 5000}}}]'
    assert errors_for_boxes(post_template_form(curator, boxes).content.decode()) == ["Enter a valid JSON."]
    body = json.dumps({"width": 600, "height": 450}).replace("}", f', "boxes": {boxes}}}')
    response = curator.post(PREVIEW, body, content_type="application/json")
    assert response.status_code == 400 and response.json() == {"problems": ["send the boxes as JSON"]}
