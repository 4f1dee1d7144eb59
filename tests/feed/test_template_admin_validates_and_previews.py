import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from feed.models import Template
from tests.conftest import jpeg_bytes, make_template

BOXES = json.dumps([{"anchor_x": 0, "anchor_y": 0, "scale_x": 1, "scale_y": 0.25}])


@pytest.fixture
def curator(client: Client, staff: User) -> Client:
    client.force_login(staff)
    return client


def add_template(curator: Client, image: bytes, boxes: str = BOXES, filename: str = "new.jpg") -> Any:
    return curator.post(
        "/admin/feed/template/add/",
        {
            "name": "New One",
            "slug": "new-one",
            "image": SimpleUploadedFile(filename, image),
            "boxes": boxes,
            "mark_position": "bottom-right",
            "is_active": "on",
            "alternative_names": "",
            "keywords": "",
            "example_captions": "",
        },
    )


def test_a_valid_upload_is_stored_re_encoded(curator: Client) -> None:
    response = add_template(curator, jpeg_bytes(2400, 1200), filename="photo.png")
    assert response.status_code == 302, response.content.decode()[:2000]
    template = Template.objects.get(slug="new-one")
    assert str(template.image.name).endswith(".jpg")
    assert template.image.width == 2000 and len(template.image_sha256) == 64


def test_bad_boxes_get_a_clear_message_and_nothing_is_stored(curator: Client) -> None:
    response = add_template(curator, jpeg_bytes(), boxes='[{"anchor_y": 0.9, "scale_y": 0.5}]')
    assert response.status_code == 200
    assert "reaches outside the image" in response.content.decode()
    assert not Template.objects.exists()


def test_boxes_that_are_not_json_get_a_clear_message(curator: Client) -> None:
    response = add_template(curator, jpeg_bytes(), boxes="[{anchor_x: 0}")
    assert "Enter a valid JSON" in response.content.decode()
    assert not Template.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "The submitted file is empty"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "SVG is not accepted"),
        (jpeg_bytes()[:200], "damaged or truncated"),
    ],
)
def test_a_bad_image_gets_a_clear_message_and_nothing_is_stored(
    curator: Client, data: bytes, message: str
) -> None:
    response = add_template(curator, data)
    assert message in response.content.decode()
    assert not Template.objects.exists()


def test_the_change_page_gives_the_box_editor_the_image_the_boxes_and_the_fonts(curator: Client) -> None:
    template = make_template(boxes=2)
    page = curator.get(f"/admin/feed/template/{template.pk}/change/").content.decode()
    assert f'data-image="{template.image.url}"' in page
    assert 'data-preview="/admin/feed/template/preview/"' in page
    assert '<script src="/static/curation/box-editor.js" type="module">' in page
    assert (
        "&quot;fonts&quot;: [&quot;thick&quot;, &quot;thin&quot;, &quot;comic&quot;, &quot;notosans&quot;]"
        in page
    )
    assert page.count("&quot;anchor_x&quot;") == 3  # the two boxes, and a new box's settings


def test_templates_are_found_by_any_of_their_names(curator: Client) -> None:
    make_template("success", alternative_names=["fist pump baby"])
    make_template("drake")
    page = curator.get("/admin/feed/template/", {"q": "fist pump"}).content.decode()
    assert "/admin/feed/template/" in page and "Success" in page and "Drake" not in page


def test_curators_deactivate_and_activate_templates(curator: Client) -> None:
    template = make_template()
    curator.post("/admin/feed/template/", {"action": "deactivate", "_selected_action": [template.pk]})
    template.refresh_from_db()
    assert not template.is_active
    curator.post("/admin/feed/template/", {"action": "activate", "_selected_action": [template.pk]})
    template.refresh_from_db()
    assert template.is_active


def test_readers_cannot_curate(client: Client, alice: User) -> None:
    client.force_login(alice)
    assert client.get("/admin/feed/template/").status_code == 302
