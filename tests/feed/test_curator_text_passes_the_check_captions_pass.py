"""Curator text (template names, alternative names, keywords, example captions) goes through
the check generated captions and reader keywords pass, in the admin, the importer and the API:
disguised profanity, hateful meaning and undrawable or invisible characters are refused with a
message and nothing is stored; fullwidth text is kept as the ASCII memes show."""

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from feed.importer import import_templates
from feed.models import Template
from generation.models import GenerationJob
from tests.conftest import make_template, post_template_form
from tests.template_folders import write_template_folder

BOXES = json.dumps([{"anchor_x": 0, "anchor_y": 0, "scale_x": 1, "scale_y": 0.25}])


@pytest.fixture
def curator(client: Client, staff: User) -> Client:
    client.force_login(staff)
    return client


def add_template(curator: Client, **fields: Any) -> Any:
    return post_template_form(
        curator, BOXES, **({"name": "New One", "slug": "new-one", "is_active": "on"} | fields)
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"keywords": "ｆｕｃｋ"}, "profanity"),
        ({"keywords": "cats, f u c k"}, "profanity"),
        ({"alternative_names": "hillaryshit"}, "profanity"),
        ({"example_captions": "when the code compiles | sh*t it works"}, "profanity"),
        ({"example_captions": "china should be dead"}, "hateful"),
        ({"name": "New\u3164One"}, "invisible"),
        ({"keywords": "寿司"}, "cannot draw"),
    ],
)
def test_the_admin_refuses_curator_text_a_meme_may_not_show(
    curator: Client, fields: dict[str, str], message: str
) -> None:
    response = add_template(curator, **fields)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Template.objects.exists()


def test_the_admin_keeps_mild_words_and_stores_fullwidth_text_as_ascii(curator: Client) -> None:
    response = add_template(
        curator,
        name="Ｔｏｏ Ｄａｍｎ Ｈｉｇｈ",
        keywords="damn, hell, ｒｅｎｔ",
        example_captions="the rent | is too damn high",
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    template = Template.objects.get(slug="new-one")
    assert template.name == "Too Damn High"
    assert template.keywords == ["damn", "hell", "rent"]


@pytest.mark.django_db
def test_the_importer_skips_a_template_with_a_refused_example_caption_by_name(tmp_path: Path) -> None:
    write_template_folder(tmp_path, "good", name="Good", examples=[["damn it", "not again"]])
    write_template_folder(tmp_path, "rude", name="Rude", examples=[["what the ｆｕｃｋ"]])
    report = import_templates(tmp_path)
    assert report.created == ["good"]
    assert "profanity" in dict(report.skipped)["rude"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("keyword", "status"), [("ｆｕｃｋ", 400), ("f.u.c.k", 400), ("🍕", 400), ("damn", 202)]
)
def test_the_api_puts_reader_keywords_through_the_same_check(
    alice: User, keyword: str, status: int, django_capture_on_commit_callbacks: Any
) -> None:
    make_template("success", model_key="Success-Kid")
    api = APIClient()
    api.force_authenticate(alice)
    response = api.post("/api/make/", {"keywords": [keyword]}, format="json")
    assert response.status_code == status, response.data
    assert GenerationJob.objects.exists() == (status == 202)
