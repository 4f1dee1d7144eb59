""" "Make a meme": a reader asks for a template and keywords, sees the request's
status and its variants as they finish; bad requests get a clear 400."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from feed.models import Template
from generation import jobs
from generation.models import GenerationJob
from tests.conftest import make_template


@pytest.fixture
def api(alice: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(alice)
    return client


@pytest.fixture
def success(db: None) -> Template:
    return make_template("success", model_key="Success-Kid")


def test_a_request_queues_a_job_and_reports_its_memes_as_they_finish(
    api: APIClient, success: Template, caption_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as sent:
        response = api.post(
            "/api/make/", {"template": "success", "keywords": ["monday", "coffee"]}, format="json"
        )
    assert response.status_code == 202, response.data
    assert response.data["status"] == "queued" and response.data["memes"] == []
    assert len(sent) == 1

    jobs.render_memes(jobs.write_captions([response.data["id"]]))
    status = api.get(f"/api/make/{response.data['id']}/").data

    assert status["status"] == "done" and len(status["memes"]) == 4
    assert all(meme["status"] == "ready" and meme["image"] for meme in status["memes"])
    assert caption_model.requests[0].keywords == ["monday", "coffee"]


def test_random_is_the_default_template(
    api: APIClient, success: Template, django_capture_on_commit_callbacks: Any
) -> None:
    response = api.post("/api/make/", {}, format="json")
    assert response.status_code == 202
    assert response.data["template"] == "success"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"keywords": ["a", "b", "c", "d"]}, "at most 3"),
        ({"keywords": ["x" * 31]}, "over 30 characters"),
        ({"keywords": [""]}, "empty"),
        ({"keywords": [{"nested": "object"}]}, "Not a valid string"),
        ({"keywords": "just a string"}, "list"),
        ({"template": "no-such-template"}, "does not exist"),
    ],
)
def test_bad_requests_get_a_clear_message_and_queue_nothing(
    api: APIClient, success: Template, body: dict[str, Any], message: str
) -> None:
    response = api.post("/api/make/", body, format="json")
    assert response.status_code == 400
    assert message.lower() in str(response.data).lower()
    assert not GenerationJob.objects.exists()


def test_profane_keywords_are_refused(api: APIClient, success: Template) -> None:
    response = api.post("/api/make/", {"keywords": ["shit"]}, format="json")
    assert response.status_code == 400 and not GenerationJob.objects.exists()


def test_an_inactive_template_cannot_be_asked_for(api: APIClient, success: Template) -> None:
    Template.objects.update(is_active=False)
    assert api.post("/api/make/", {"template": "success"}, format="json").status_code == 400


def test_a_reader_over_the_hourly_limit_is_told_to_wait(
    api: APIClient, success: Template, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.THROTTLE_GENERATION_HOURLY = "2/hour"
    codes = [api.post("/api/make/", {}, format="json").status_code for _ in range(3)]
    assert codes == [202, 202, 429]
    assert "2 memes an hour" in api.post("/api/make/", {}, format="json").data["detail"]
    assert GenerationJob.objects.count() == 2


def test_the_site_wide_limit_holds_across_readers(
    alice: User, bob: User, success: Template, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.THROTTLE_GENERATION_SITE = "1/minute"
    codes = []
    for reader in (alice, bob):
        client = APIClient()
        client.force_authenticate(reader)
        codes.append(client.post("/api/make/", {}, format="json").status_code)
    assert codes == [202, 429]


def test_another_readers_request_is_not_found(
    api: APIClient, bob: User, success: Template, django_capture_on_commit_callbacks: Any
) -> None:
    job_id = api.post("/api/make/", {}, format="json").data["id"]
    other = APIClient()
    other.force_authenticate(bob)
    assert other.get(f"/api/make/{job_id}/").status_code == 404


def test_anonymous_visitors_cannot_ask(success: Template) -> None:
    assert APIClient().post("/api/make/", {}, format="json").status_code in (401, 403)
    assert not GenerationJob.objects.exists()


def test_a_malformed_request_id_is_not_found(api: APIClient) -> None:
    assert api.get("/api/make/not-a-uuid/").status_code == 404
