"""Rendering stores a meme's lighter WebP copies beside its image, named from
the image's own name (a hash of the render's inputs), and lists them on the
row; a retried render reuses them, writes back only what is missing, and
RENDER_VARIANTS off makes none."""

from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from feed.models import Meme
from generation import jobs
from generation.models import GenerationJob
from generation.render.variants import variant_name
from tests.conftest import make_template


@pytest.fixture
def waiting(db: None, caption_model: Any) -> list[int]:
    job = GenerationJob.objects.create(template=make_template(), count=2)
    return jobs.write_captions([job.pk])


def copy_files(meme: Meme, media: Path) -> dict[int, Path]:
    return {width: media / variant_name(str(meme.image.name), width) for width in meme.image_variants or ()}


def test_each_rendered_meme_lists_a_600_px_and_a_full_width_webp_copy(
    waiting: list[int], media_in_tmp: Path
) -> None:
    assert jobs.render_memes(waiting) == 2

    for meme in Meme.objects.all():
        assert meme.image_variants == [600, 800]
        for width, path in copy_files(meme, media_in_tmp).items():
            assert path.name == Path(str(meme.image.name)).stem + f".{width}w.webp"
            with Image.open(path) as copy:
                assert (copy.format, copy.size) == ("WEBP", (width, round(600 * width / 800)))
            assert path.stat().st_size < Path(meme.image.path).stat().st_size


def test_a_retried_render_reuses_its_copies_and_restores_a_lost_one(
    waiting: list[int], media_in_tmp: Path
) -> None:
    jobs.render_memes(waiting)
    meme = Meme.objects.order_by("pk").first()
    assert meme is not None
    files = copy_files(meme, media_in_tmp)
    kept = files[800].stat().st_mtime_ns
    lost = files[600].read_bytes()
    files[600].unlink()
    Meme.objects.filter(pk=meme.pk).update(
        status="queued", image_variants=None
    )  # died before marking it ready

    assert jobs.render_memes([meme.pk]) == 1

    meme.refresh_from_db()
    assert meme.image_variants == [600, 800]
    assert files[600].read_bytes() == lost, "the same inputs give the same bytes"
    assert files[800].stat().st_mtime_ns == kept
    assert not [path for path in media_in_tmp.rglob("*") if ".partial-" in path.name]


def test_with_copies_turned_off_pages_get_the_image_alone(
    waiting: list[int], media_in_tmp: Path, settings: Any
) -> None:
    settings.RENDER_VARIANTS = False
    jobs.render_memes(waiting)

    assert list(Meme.objects.values_list("image_variants", flat=True)) == [None, None]
    assert not list(media_in_tmp.rglob("*.webp"))


def test_a_webp_image_gets_only_the_small_copy_when_a_second_full_width_one_is_no_lighter(
    waiting: list[int], media_in_tmp: Path, settings: Any
) -> None:
    settings.RENDER_FORMAT = "webp"
    jobs.render_memes(waiting)

    for meme in Meme.objects.all():
        assert str(meme.image.name).endswith(".webp")
        assert meme.image_variants == [600]
        with Image.open(BytesIO(Path(meme.image.path).read_bytes())) as image:
            assert image.width == 800
