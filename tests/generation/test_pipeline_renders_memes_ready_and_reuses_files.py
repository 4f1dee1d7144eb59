from pathlib import Path
from typing import Any

import pytest

from feed.models import Meme
from generation import jobs
from generation.models import GenerationJob
from tests.conftest import make_template


@pytest.fixture
def waiting(db: None, caption_model: Any) -> list[int]:
    job = GenerationJob.objects.create(template=make_template(), count=2)
    return jobs.write_captions([job.pk])


def test_rendered_memes_become_ready_with_an_image_and_scores(waiting: list[int]) -> None:
    assert jobs.render_memes(waiting) == 2

    for meme in Meme.objects.all():
        assert meme.status == "ready" and meme.ready_at is not None
        name = str(meme.image.name)
        assert name.startswith("memes/") and meme.image.storage.exists(name)
        assert meme.hot > 0 and meme.rating == pytest.approx(0.5)
        assert (meme.width, meme.height) == (800, 600), "the feed reserves the image's space from these"
    assert GenerationJob.objects.get().status == "done"


def test_a_second_render_changes_nothing(waiting: list[int]) -> None:
    jobs.render_memes(waiting)
    before = list(Meme.objects.order_by("pk").values_list("image", "ready_at"))

    assert jobs.render_memes(waiting) == 0
    assert list(Meme.objects.order_by("pk").values_list("image", "ready_at")) == before


def test_a_retried_render_reuses_the_file_an_earlier_attempt_wrote(
    waiting: list[int], media_in_tmp: Path
) -> None:
    jobs.render_memes(waiting)
    meme = Meme.objects.first()
    assert meme is not None
    Meme.objects.filter(pk=meme.pk).update(status="queued")  # the worker died before marking it ready

    jobs.render_memes([meme.pk])

    meme.refresh_from_db()
    assert meme.status == "ready"
    assert len(list((media_in_tmp / "memes").rglob("*.jpg"))) == 2
