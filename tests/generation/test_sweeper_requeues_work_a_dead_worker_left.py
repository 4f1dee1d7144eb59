from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from feed.models import Meme
from generation import jobs
from generation.models import GenerationJob
from tests.conftest import make_template


@pytest.fixture
def job(db: None) -> GenerationJob:
    return GenerationJob.objects.create(template=make_template(), count=2)


def later(settings: Any) -> Any:
    return timezone.now() + timedelta(seconds=settings.GENERATION_JOB_DEADLINE_SECONDS + 1)


def test_a_job_claimed_past_the_deadline_goes_back_to_the_queue(job: GenerationJob, settings: Any) -> None:
    assert job.claim()

    found = jobs.sweep(now=later(settings))

    job.refresh_from_db()
    assert found.requeued_jobs == [job.pk] and job.status == "queued"


def test_a_job_claimed_recently_is_left_to_its_worker(job: GenerationJob) -> None:
    assert job.claim()

    assert jobs.sweep().requeued_jobs == []


def test_a_queued_job_whose_message_was_lost_is_sent_again(job: GenerationJob, settings: Any) -> None:
    found = jobs.sweep(now=later(settings))

    assert found.resent_jobs == [job.pk]
    assert jobs.sweep(now=later(settings)).resent_jobs == [], "not sent again before another deadline"


def test_a_job_that_keeps_killing_workers_is_given_up_with_a_reason(
    job: GenerationJob, settings: Any
) -> None:
    GenerationJob.objects.filter(pk=job.pk).update(status="running", attempts=3, claimed_at=timezone.now())

    found = jobs.sweep(now=later(settings))

    job.refresh_from_db()
    assert found.failed_jobs == 1 and job.status == "failed" and "gave up after 3 attempts" in job.error


def test_memes_left_waiting_to_render_are_sent_again(
    job: GenerationJob, settings: Any, caption_model: Any
) -> None:
    waiting = jobs.write_captions([job.pk])

    assert jobs.sweep().resent_memes == []
    assert sorted(jobs.sweep(now=later(settings)).resent_memes) == sorted(waiting)
    assert Meme.objects.filter(status="queued").count() == 2
