"""A job's memes are made once, however often its message arrives."""

from typing import Any

import pytest

from feed.models import Meme
from generation import jobs
from generation.models import GenerationJob
from tests.conftest import make_template


@pytest.fixture
def job(db: None) -> GenerationJob:
    return GenerationJob.objects.create(template=make_template(model_key="Success-Kid"), count=3)


def test_a_job_writes_its_captions_as_queued_memes(job: GenerationJob, caption_model: Any) -> None:
    waiting = jobs.write_captions([job.pk])

    memes = Meme.objects.filter(job=job)
    assert sorted(waiting) == sorted(memes.values_list("pk", flat=True))
    assert memes.count() == 3 and set(memes.values_list("status", flat=True)) == {"queued"}
    assert caption_model.requests[0].template_key == "Success-Kid"
    meme = memes.first()
    assert meme is not None and meme.model_version == "fake-model-1" and meme.sampling == {"temperature": 0.9}


def test_a_redelivered_job_makes_no_second_set(job: GenerationJob, caption_model: Any) -> None:
    jobs.write_captions([job.pk])
    GenerationJob.objects.filter(pk=job.pk).update(status="queued")  # as the sweeper does after a crash

    jobs.write_captions([job.pk])

    assert Meme.objects.filter(job=job).count() == 3
    assert caption_model.captions_written == 3, "the retry asked the model for nothing"


def test_a_job_another_worker_holds_is_left_alone(job: GenerationJob, caption_model: Any) -> None:
    assert job.claim()

    assert jobs.write_captions([job.pk]) == []
    assert caption_model.captions_written == 0


def test_a_half_made_job_makes_only_what_is_missing(job: GenerationJob, caption_model: Any) -> None:
    jobs.write_captions([job.pk])
    Meme.objects.filter(job=job).order_by("pk").last().delete()  # type: ignore[union-attr]
    GenerationJob.objects.filter(pk=job.pk).update(status="queued")

    jobs.write_captions([job.pk])

    assert Meme.objects.filter(job=job).count() == 3
    assert caption_model.captions_written == 4


def test_several_jobs_share_one_batched_call(db: None, caption_model: Any) -> None:
    first = GenerationJob.objects.create(template=make_template("a", boxes=1), count=2)
    second = GenerationJob.objects.create(template=make_template("b", boxes=2), count=3)

    jobs.write_captions([first.pk, second.pk])

    assert len(caption_model.requests) == 2
    assert [len(m.texts) for m in Meme.objects.filter(job=first)] == [1, 1]
    assert [len(m.texts) for m in Meme.objects.filter(job=second)] == [2, 2, 2]
