"""The template admin tells a curator where the caption model gets a template's joke format,
and warns on saving a template that gives it none."""

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from tests.conftest import make_template, post_template_form

BOXES = json.dumps([{"anchor_y": 0, "scale_y": 0.25}, {"anchor_y": 0.75, "scale_y": 0.25}])


@pytest.fixture
def curator(client: Client, staff: User, settings: Any, tmp_path: Path) -> Client:
    tokens = [{"content": t} for t in ("<|endoftext|>", "<|tpl:any|>", "<|tpl:Y-U-No|>")]
    (tmp_path / "tokenizer.json").write_text(json.dumps({"added_tokens": tokens}))
    settings.CAPTION_MODEL_DIR = tmp_path
    client.force_login(staff)
    return client


def add_template(curator: Client, examples: str, model_key: str = "") -> Any:
    fields = {"name": "Fry", "slug": "fry", "is_active": "on", "model_key": model_key}
    return post_template_form(curator, BOXES, follow=True, example_captions=examples, **fields)


def test_saving_a_new_template_without_examples_warns_what_it_lacks(curator: Client) -> None:
    page = add_template(curator, "").content.decode()
    assert Template.objects.filter(slug="fry").exists()  # a warning, not a refusal
    assert "New to the caption model and it has no example captions" in page


def test_examples_that_share_openings_are_shown_as_the_format(curator: Client) -> None:
    examples = "not sure if trolling | or just stupid\nnot sure if tired | or just lazy"
    response = add_template(curator, examples)
    assert "no example captions" not in response.content.decode()
    template = Template.objects.get(slug="fry")
    page = curator.get(f"/admin/feed/template/{template.pk}/change/").content.decode()
    assert "each box opens as most of the examples do: “not sure if …” | “or just …”" in page
    assert "Beyond those words it does not know this template" in page  # what it lacks, plainly


def test_a_name_the_model_does_not_know_is_said_with_the_closest_it_does(curator: Client) -> None:
    page = add_template(curator, "", model_key="Y-U-Know").content.decode()
    assert "no template named “Y-U-Know” (did you mean “Y-U-No”?)" in page


def test_saving_a_name_the_model_does_not_know_warns_even_with_a_format(curator: Client) -> None:
    examples = "not sure if trolling | or just stupid\nnot sure if tired | or just lazy"
    response = add_template(curator, examples, model_key="Y-U-Know")
    assert [str(m) for m in response.context["messages"] if "Y-U-Know" in str(m)]


def test_the_template_list_shows_where_each_format_comes_from(curator: Client) -> None:
    make_template("yuno", model_key="Y-U-No")
    make_template("blank")
    page = curator.get("/admin/feed/template/").content.decode()
    assert '<td class="field-caption_format_source">trained</td>' in page
    assert '<td class="field-caption_format_source">none</td>' in page
