"""The box editor's live preview draws unsaved boxes with the real renderer,
for curators who may change templates only: staff without that permission get
403, readers are sent to the admin's login, and bad requests are answered with
every problem at once."""

from __future__ import annotations

import base64
import io
import json
from typing import Any

import numpy as np
import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from PIL import Image

from generation.layout import parse_boxes
from generation.render import render_meme
from tests.conftest import PASSWORD

URL = "/admin/feed/template/preview/"
BOXES = [{"anchor_x": 0, "anchor_y": 0, "scale_x": 1, "scale_y": 0.25}, {"anchor_y": 0.8}]
TEXTS = ["top text", "bottom"]
REQUEST = {
    "width": 600,
    "height": 450,
    "boxes": BOXES,
    "texts": TEXTS,
    "mark_position": "top-left",
}


def ask(client: Client, payload: Any) -> Any:
    return client.post(URL, json.dumps(payload), content_type="application/json")


def staff_member(username: str, *permissions: str) -> Client:
    user = User.objects.create_user(username, f"{username}@example.com", PASSWORD, is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__in=permissions))
    client = Client()
    client.force_login(user)
    return client


def test_staff_without_change_permission_are_refused(db: None) -> None:
    for client in (staff_member("bob"), staff_member("charlie", "view_template", "add_template")):
        response = ask(client, REQUEST)
        assert response.status_code == 403
        assert response.json() == {"problems": ["you may not change templates"]}


def test_readers_are_sent_to_the_admin_login(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = ask(client, REQUEST)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_a_curator_gets_the_renderers_text_on_a_transparent_canvas(db: None) -> None:
    answer = ask(staff_member("alice", "change_template"), REQUEST)
    assert answer.status_code == 200
    body = answer.json()
    assert body["image"].startswith("data:image/png;base64,")
    overlay = Image.open(io.BytesIO(base64.b64decode(body["image"].split(",", 1)[1])))
    assert overlay.mode == "RGBA" and overlay.size == (800, 600) and body["width"] == 800

    # Laid over a template of that size it is the meme the renderer draws, to a level.
    template = Image.new("RGB", (600, 450), "steelblue")
    real = render_meme(template, parse_boxes(BOXES), TEXTS, width=800, mark_position="top-left")
    composed = Image.alpha_composite(template.resize((800, 600)).convert("RGBA"), overlay).convert("RGB")
    difference = np.abs(np.asarray(composed, dtype=int) - np.asarray(real.image, dtype=int))
    assert difference.max() <= 2
    assert body["font_sizes"] == real.font_sizes and body["overflow"] == 0


def test_every_problem_of_a_bad_request_is_named(db: None) -> None:
    curator = staff_member("alice", "change_template")
    boxes = [{"anchor_x": 2}, {"color": "blu"}]
    answer = ask(curator, {**REQUEST, "boxes": boxes})
    assert answer.status_code == 400
    assert answer.json()["problems"] == [
        "Box 1: anchor_x must be a fraction of the image in [0, 1], not 2",
        "Box 2: color 'blu' is not a colour (a name such as white, or #hex)",
    ]
    assert ask(curator, {**REQUEST, "width": 10}).json()["problems"] == [
        "width and height must be between 50 and 2000 pixels"
    ]
    assert ask(curator, {**REQUEST, "texts": ["a", "b", "c"]}).status_code == 400
    assert ask(curator, {**REQUEST, "texts": ["x" * 301]}).status_code == 400
    assert ask(curator, {**REQUEST, "mark_position": "middle"}).status_code == 400
    assert ask(curator, [1, 2]).status_code == 400
    assert curator.post(URL, "{not json", content_type="application/json").json() == {
        "problems": ["send the boxes as JSON"]
    }
    assert curator.get(URL).status_code == 405


@pytest.mark.parametrize("size", [(2000, 300), (60, 2000)])
def test_images_too_thin_are_refused(db: None, size: tuple[int, int]) -> None:
    answer = ask(staff_member("alice", "change_template"), {**REQUEST, "width": size[0], "height": size[1]})
    assert (
        answer.status_code == 400 and "one side may be at most 5 times the other" in answer.json()["problems"]
    )
