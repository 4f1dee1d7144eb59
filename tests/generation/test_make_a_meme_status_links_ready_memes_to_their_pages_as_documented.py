""" "Make a meme" answers through the serializer its schema documents: each
ready meme links to its page, which the site names (the feed's /m/<id>/,
through generation's outlet), a meme on its way has no image or page yet, a
meme the moderators hid is left out, and only a failed request says why."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Template
from generation.models import GenerationJob
from tests.conftest import make_meme


@pytest.fixture
def alices_request(alice: User, template: Template) -> GenerationJob:
    return GenerationJob.objects.create(
        template=template, count=3, reason=GenerationJob.Reason.REQUEST, requested_by=alice
    )


def status_of(client: Client, alice: User, job: GenerationJob) -> dict[str, Any]:
    client.force_login(alice)
    response = client.get(f"/api/make/{job.pk}/")
    assert response.status_code == 200
    answer: dict[str, Any] = response.json()
    return answer


def test_a_ready_meme_links_to_its_page_and_one_on_its_way_to_nothing(
    client: Client, alice: User, template: Template, alices_request: GenerationJob
) -> None:
    ready = make_meme(template, job=alices_request, image="memes/ready.png")
    queued = make_meme(template, job=alices_request, status=Meme.Status.QUEUED)
    make_meme(template, job=alices_request, status=Meme.Status.HIDDEN)
    answer = status_of(client, alice, alices_request)
    caption = "top text / bottom text"
    assert answer["memes"] == [
        {
            "id": ready.pk,
            "status": "ready",
            "image": ready.image.url,
            "url": f"/m/{ready.pk}/",
            "alt": caption,
        },
        {"id": queued.pk, "status": "queued", "image": None, "url": None, "alt": caption},
    ]
    assert client.get(answer["memes"][0]["url"]).status_code == 200


@pytest.mark.parametrize(
    ("status", "shown"),
    [(GenerationJob.Status.FAILED, "the caption model is away"), (GenerationJob.Status.RUNNING, "")],
)
def test_only_a_failed_request_says_why(
    client: Client, alice: User, alices_request: GenerationJob, status: str, shown: str
) -> None:
    GenerationJob.objects.filter(pk=alices_request.pk).update(
        status=status, error="the caption model is away"
    )
    assert status_of(client, alice, alices_request)["error"] == shown


def test_the_answer_holds_the_fields_its_schema_documents(
    client: Client, alice: User, template: Template, alices_request: GenerationJob
) -> None:
    make_meme(template, job=alices_request)
    answer = status_of(client, alice, alices_request)
    documented = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    assert list(answer) == list(documented["MakeRequestStatus"]["properties"])
    assert list(answer["memes"][0]) == list(documented["MakeRequestMeme"]["properties"])
