"""Permanent failures end the job with a reason a person can read; transient
ones give the job back to the queue for a retry; failed memes reach no feed."""

from pathlib import Path
from typing import Any

import pytest

from feed.models import Meme
from generation import jobs
from generation.models import GenerationJob, Template
from tests.conftest import make_template


@pytest.fixture
def job(db: None) -> GenerationJob:
    return GenerationJob.objects.create(template=make_template(), count=2)


def test_a_missing_caption_model_fails_the_job_naming_the_path(
    job: GenerationJob, settings: Any, tmp_path: Path
) -> None:
    jobs.use_caption_model(None)
    settings.CAPTION_MODEL_DIR = tmp_path / "no-model-here"

    assert jobs.write_captions([job.pk]) == []

    job.refresh_from_db()
    assert job.status == "failed" and str(tmp_path / "no-model-here") in job.error


def test_a_transient_error_puts_the_job_back_in_the_queue(job: GenerationJob, caption_model: Any) -> None:
    caption_model.fail_with = ConnectionError("GPU went away")

    with pytest.raises(ConnectionError):
        jobs.write_captions([job.pk])

    job.refresh_from_db()
    assert job.status == "queued" and job.attempts == 1
    assert not Meme.objects.exists()


def test_a_template_whose_image_is_gone_fails_its_memes(job: GenerationJob, caption_model: Any) -> None:
    waiting = jobs.write_captions([job.pk])
    job.template.image.storage.delete(str(job.template.image.name))
    jobs._template_at_width.cache_clear()  # a worker that never rendered this template before

    assert jobs.render_memes(waiting) == 0

    assert set(Meme.objects.values_list("status", flat=True)) == {"failed"}
    assert "template image" in Meme.objects.first().failure_reason  # type: ignore[union-attr]
    job.refresh_from_db()
    assert job.status == "done"
    assert not Meme.objects.visible().exists()


def test_a_request_the_model_refuses_fails_the_job_instead_of_retrying(
    job: GenerationJob, caption_model: Any
) -> None:
    from generation.captions import TemplateError

    caption_model.fail_with = TemplateError("n must be 0-64, got 128")

    assert jobs.write_captions([job.pk]) == []

    job.refresh_from_db()
    assert job.status == "failed" and "n must be 0-64" in job.error


def break_layout(template: Template) -> None:
    """Boxes saved before the schema refused them: update() skips validation, as those saves did."""
    Template.objects.filter(pk=template.pk).update(boxes=[{"color": f"rgb({10**24},0,0)"}])


def test_a_job_whose_template_layout_cannot_be_drawn_fails_naming_the_box(
    job: GenerationJob, caption_model: Any
) -> None:
    break_layout(job.template)

    assert jobs.write_captions([job.pk]) == []

    job.refresh_from_db()
    assert job.status == "failed"
    assert job.error.startswith("template layout cannot be drawn: Box 1: color")
    assert not Meme.objects.exists(), "no captions are written for a template no render could draw"


def test_memes_waiting_when_the_layout_broke_fail_with_the_reason(
    job: GenerationJob, caption_model: Any
) -> None:
    waiting = jobs.write_captions([job.pk])
    break_layout(job.template)

    assert jobs.render_memes(waiting) == 0

    reasons = set(Meme.objects.values_list("status", "failure_reason"))
    assert [status for status, _ in reasons] == ["failed"]
    assert all(reason.startswith("template layout cannot be drawn: Box 1: color") for _, reason in reasons)
    job.refresh_from_db()
    assert job.status == "done"  # as when a template's image is gone: each meme says why it failed
