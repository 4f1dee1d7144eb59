"""Boxes nested 100,000 deep are refused with the site's one message on nesting
(memesite.parsers), by the box editor's live preview with a 400 and by the
template admin's form as an error on the boxes, and log no traceback: both
parsed with Python's recursive decoder and answered a 500."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from memesite.parsers import MAX_DEPTH, MESSAGE
from tests.conftest import post_template_form

PREVIEW = "/admin/feed/template/preview/"


def arrays(depth: int) -> str:
    return "[" * depth + "]" * depth


TOO_DEEP = {
    "arrays 100,000 deep": arrays(100_000),
    "a box's setting 990 deep": f'[{{"anchor_x": {arrays(990)}}}]',
    "a box's setting just past the limit": f'[{{"anchor_x": {arrays(MAX_DEPTH - 1)}}}]',
}


@pytest.fixture
def curator(client: Client, staff: User, caplog: pytest.LogCaptureFixture) -> Iterator[Client]:
    client.force_login(staff)
    yield client
    assert all(record.levelno < logging.ERROR and not record.exc_info for record in caplog.records)


@pytest.mark.parametrize("boxes", TOO_DEEP.values(), ids=TOO_DEEP.keys())
def test_the_preview_answers_400_saying_so(curator: Client, boxes: str) -> None:
    body = f'{{"width": 600, "height": 450, "texts": [], "mark_position": "top-left", "boxes": {boxes}}}'
    response = curator.post(PREVIEW, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"problems": [MESSAGE]}


@pytest.mark.parametrize("boxes", TOO_DEEP.values(), ids=TOO_DEEP.keys())
def test_the_admin_form_says_so_against_the_boxes(curator: Client, boxes: str) -> None:
    response = post_template_form(curator, boxes)
    assert response.status_code == 200
    row = response.content.decode().split('class="form-row errors field-boxes"', 1)[1]
    assert re.findall(r"<li>(.*?)</li>", row[: row.index("</ul>")]) == [MESSAGE]
    assert not Template.objects.exists()


def test_nesting_up_to_the_limit_reaches_the_box_schema(curator: Client) -> None:
    # The request (1), its boxes (2), a box (3) and the setting's lists: MAX_DEPTH in all.
    boxes = f'[{{"anchor_x": {arrays(MAX_DEPTH - 3)}}}]'
    body = f'{{"width": 600, "height": 450, "texts": [], "mark_position": "top-left", "boxes": {boxes}}}'
    problems = curator.post(PREVIEW, body, content_type="application/json").json()["problems"]
    assert problems == ["Box 1: anchor_x must be a number, not [[[[[[[...]]]]]]]"]
