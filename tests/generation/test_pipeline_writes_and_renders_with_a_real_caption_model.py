"""The pipeline with a real caption model, not the stand-in the other pipeline
tests use: a tiny GPT-2 built in the test (generation/captions/tiny.py) takes
the job's requests through the same seam as the product's model, its captions
become the job's memes, and they render ready."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from feed.models import Meme
from generation import jobs
from generation.captions.model import CaptionModel
from generation.captions.tiny import tiny_caption_model
from generation.models import GenerationJob
from tests.conftest import make_template


@pytest.fixture(scope="module")
def tiny() -> CaptionModel:
    return tiny_caption_model()


@pytest.fixture
def real_model(tiny: CaptionModel, settings: Any) -> Iterator[CaptionModel]:
    settings.CAPTION_CANDIDATES = 1  # one sample per caption shown: choosing among several has its own tests
    jobs.use_caption_model(tiny)
    yield tiny
    jobs.use_caption_model(None)


@pytest.mark.django_db
def test_a_job_gets_memes_the_model_wrote_and_they_render_ready(real_model: CaptionModel) -> None:
    template = make_template("success", boxes=2, model_key="Drake-Hotline-Bling")
    # A fixed id: the job's id seeds the sampler, so the captions are the same every run.
    job = GenerationJob.objects.create(id=uuid.UUID(int=7), template=template, count=3, keywords=["coffee"])

    waiting = jobs.write_captions([job.pk])

    memes = list(Meme.objects.filter(job=job).order_by("pk"))
    assert [meme.pk for meme in memes] == sorted(waiting) and len(memes) == 3
    for meme in memes:
        assert len(meme.texts) == 2 and all(text.strip() for text in meme.texts)
        assert meme.keywords == ["coffee"] and meme.model_version == "tiny"
        assert meme.sampling["seed"] == int(job.pk) % 2**31 and meme.requested_by is None
    assert {meme.generation_id for meme in memes} == {jobs.generation_id(job.pk, n) for n in range(3)}

    assert jobs.render_memes(waiting) == 3
    for meme in Meme.objects.filter(job=job):
        assert meme.status == "ready" and meme.image.storage.exists(str(meme.image.name))
    job.refresh_from_db()
    assert job.status == "done" and job.error == ""
