"""Where generation work meets the database: load rows by id, call the plain
parts (caption model, renderer), write results back.

Every step is safe to run twice. A job is claimed with a conditional update;
each meme a job makes has a generation id derived from the job, so a retry
finds the memes it already made; rendered files are named by a hash of their
inputs and a meme becomes ready through a conditional update. Heavy work
(sampling, rendering, file writes) happens outside database transactions.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Literal

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from PIL import Image

from generation.captions.config import SamplingSettings
from generation.captions.errors import CaptionError
from generation.captions.types import Caption, CaptionRequest, CaptionWriter
from generation.images import ImageRejected, load_image
from generation.layout import LayoutError, TextBox, parse_boxes
from generation.models import GeneratedMeme, GenerationJob, Template
from generation.outlet import memes, outlet
from generation.render import encode_meme, render_key, render_meme, resized_template
from generation.render.variants import variant_name, variant_widths
from generation.variants import store_variants

log = logging.getLogger(__name__)


class PermanentFailure(Exception):
    """Work that will fail the same way however often it is tried."""


# One caption model per worker process, loaded on first use: Celery kills a
# process whose start-up blocks for over 4 s, and CUDA must not be touched
# before a prefork pool forks.
_model_lock = threading.Lock()
_model: CaptionWriter | None = None


def caption_model() -> CaptionWriter:
    global _model
    with _model_lock:
        if _model is None:
            # torch loads here, in the processes that write captions, not in
            # every process that imports the pipeline (web, render workers).
            from generation.captions.model import load_caption_model

            try:
                _model = load_caption_model(settings.CAPTION_MODEL_DIR, settings.CAPTION_DEVICE)
            except CaptionError as error:
                raise PermanentFailure(str(error)) from None
            log.info("caption model %s loaded from %s", _model.version, settings.CAPTION_MODEL_DIR)
        return _model


def use_caption_model(model: CaptionWriter | None) -> None:
    """Swap the process's caption model (tests, benchmarks); None reloads lazily."""
    global _model
    with _model_lock:
        _model = model


def generation_id(job_id: uuid.UUID, index: int) -> uuid.UUID:
    return uuid.uuid5(job_id, f"meme-{index}")


# --- writing captions -------------------------------------------------------


@dataclass(frozen=True)
class ClaimedJob:
    job: GenerationJob
    missing: list[uuid.UUID]  # generation ids of memes the job has not made yet


def write_captions(job_ids: Iterable[uuid.UUID]) -> list[int]:
    """Claim the jobs, write all their missing captions in one batched pass and
    store them as queued memes. Returns the ids of memes waiting to render."""
    return _write_claimed([found for found in map(_claim, job_ids) if found is not None])


# Queued jobs read beyond those wanted, for the few other workers may claim meanwhile.
CLAIM_SLACK = 4


def write_captions_in_turn(count: int) -> list[int]:
    """As write_captions, for the first ``count`` queued jobs in their turn
    (GenerationJob.objects.in_turn: readers' requests first, then fairly
    between readers), whichever jobs a message named.

    Each job's message takes one turn, so every job is still run once: by its
    own message or by an earlier one that took its turn. A job another worker
    claims first is passed over for the next in turn."""
    claimed: list[ClaimedJob] = []
    while len(claimed) < count:
        wanted = count - len(claimed)
        turns = list(GenerationJob.objects.in_turn().select_related("template")[: wanted + CLAIM_SLACK])
        for job in turns:
            found = _claim_job(job)  # None: another worker's now, or failed at its claim
            if found is not None:
                claimed.append(found)
                if len(claimed) == count:
                    break
        if len(turns) < wanted + CLAIM_SLACK:
            break  # every queued job was tried
    return _write_claimed(claimed)


def _write_claimed(claimed: list[ClaimedJob]) -> list[int]:
    if not claimed:
        return []
    needing = [item for item in claimed if item.missing]
    try:
        captions = _sample(needing) if needing else []
    except PermanentFailure as error:
        for item in claimed:
            item.job.fail(str(error))
        return []
    except Exception:
        for item in claimed:
            item.job.release()  # back to the queue for the retry
        raise
    return _store_memes(claimed, captions)


def _claim(job_id: uuid.UUID) -> ClaimedJob | None:
    job = GenerationJob.objects.select_related("template").filter(pk=job_id).first()
    return None if job is None else _claim_job(job)


def _claim_job(job: GenerationJob) -> ClaimedJob | None:
    if not job.claim():
        return None
    try:
        _drawn_boxes(job.template)  # no captions for a template no render could draw
    except PermanentFailure as error:
        job.fail(str(error))
        return None
    wanted = [generation_id(job.pk, index) for index in range(job.count)]
    made = set(memes().filter(generation_id__in=wanted).values_list("generation_id", flat=True))
    return ClaimedJob(job, [gid for gid in wanted if gid not in made])


def _sample(claimed: list[ClaimedJob]) -> list[list[Caption]]:
    """One batched forward pass for every job; a list of captions per job."""
    requests = [_caption_request(item) for item in claimed]
    seed = int(claimed[0].job.pk) % (2**31)  # a retry of the same job samples the same captions
    try:
        sampling = SamplingSettings(
            candidates=settings.CAPTION_CANDIDATES, keyword_candidates=settings.CAPTION_KEYWORD_CANDIDATES
        )
        written = caption_model().write(requests, sampling, rng_seed=seed)
    except CaptionError as error:  # a request the model refuses is refused on every retry
        raise PermanentFailure(str(error)) from None
    per_job: list[list[Caption]] = [[] for _ in claimed]
    for caption in written:  # the filters may have left a request with fewer captions
        per_job[caption.request_index].append(caption)
    return per_job


def _caption_request(item: ClaimedJob) -> CaptionRequest:
    template = item.job.template
    return CaptionRequest(
        template_key=template.model_key or None,
        box_count=template.box_count,
        keywords=list(item.job.keywords),
        examples=template.example_texts(),
        n=len(item.missing),
    )


def _store_memes(claimed: list[ClaimedJob], captions: list[list[Caption]]) -> list[int]:
    needing = iter(captions)
    with transaction.atomic():
        for item in claimed:
            made = next(needing) if item.missing else []
            memes().bulk_create(
                [_meme_row(item.job, gid, caption) for gid, caption in zip(item.missing, made, strict=False)],
                ignore_conflicts=True,  # a redelivered job racing its first run makes no duplicates
            )
            GenerationJob.objects.filter(pk=item.job.pk).update(captions_written=True)
            if len(made) < len(item.missing):
                shortfall = len(item.missing) - len(made)
                GenerationJob.objects.filter(pk=item.job.pk).update(
                    error=f"{shortfall} caption(s) did not pass the filters and were dropped"
                )
        job_ids = [item.job.pk for item in claimed]
        waiting = list(
            memes()
            .filter(job_id__in=job_ids, status=GeneratedMeme.Status.QUEUED)
            .values_list("pk", flat=True)
        )
        memes().filter(pk__in=waiting).update(render_sent_at=timezone.now())
    for item in claimed:
        item.job.finish_if_complete()  # a job whose captions were all filtered out ends here
    return waiting


def _meme_row(job: GenerationJob, gid: uuid.UUID, caption: Caption) -> GeneratedMeme:
    return outlet().meme_model(
        template=job.template,
        texts=list(caption.boxes),
        keywords=list(caption.keywords),
        generation_id=gid,
        job=job,
        requested_by=job.requested_by,
        model_version=caption.model_version,
        sampling=dict(caption.sampling),
    )


# --- rendering --------------------------------------------------------------


def render_memes(meme_ids: Iterable[int]) -> int:
    """Render each queued meme and make it ready; returns how many became ready."""
    ready = 0
    job_ids = set()
    for meme in (
        memes().select_related("template").filter(pk__in=list(meme_ids), status=GeneratedMeme.Status.QUEUED)
    ):
        try:
            name, size, variants = _render_file(meme)
        except PermanentFailure as error:
            memes().filter(pk=meme.pk, status=GeneratedMeme.Status.QUEUED).update(
                status=GeneratedMeme.Status.FAILED, failure_reason=str(error)[:2000]
            )
        else:
            ready += _mark_ready(meme, name, size, variants)
        if meme.job_id:
            job_ids.add(meme.job_id)
    for job in GenerationJob.objects.filter(pk__in=job_ids):
        job.finish_if_complete()
    return ready


def _render_file(meme: GeneratedMeme) -> tuple[str, tuple[int, int], list[int] | None]:
    """Render and store the meme's image and its lighter copies; returns the
    image's storage name, its pixel size and the copies' widths (None: not made).

    A retry reuses what an earlier attempt stored, and draws the meme again
    only for what is missing: copies come from the drawn pixels, never from
    the stored JPEG, so the same inputs give the same bytes."""
    template = meme.template
    boxes = _drawn_boxes(template)
    texts = list(meme.texts)[: len(boxes)]
    width = settings.RENDER_WIDTH
    fmt: Literal["webp", "jpeg"] = "jpeg" if settings.RENDER_FORMAT == "jpeg" else "webp"
    key = render_key(template.image_sha256, boxes, texts, width, fmt, template.mark_position)
    name = f"memes/{key[:2]}/{key}.{'jpg' if fmt == 'jpeg' else fmt}"
    stored = _stored_size(name)
    if stored is not None and not settings.RENDER_VARIANTS:
        return name, stored, None
    if stored is not None and _copies_stored(name, stored[0]):
        return name, stored, variant_widths(stored[0])
    rendered = render_meme(
        _template_image(template, width), boxes, texts, width=width, mark_position=template.mark_position
    )
    data = encode_meme(rendered.image, fmt)
    if stored is None:
        name = str(default_storage.save(name, ContentFile(data)))
    variants = store_variants(name, rendered.image, len(data)) if settings.RENDER_VARIANTS else None
    return name, rendered.image.size, variants


def _drawn_boxes(template: Template) -> list[TextBox]:
    """The template's boxes through the one schema. A layout saved before the schema
    refused it (an rgb(10^24,0,0) colour) would fail every render the same way."""
    try:
        return parse_boxes(template.boxes)
    except LayoutError as error:
        raise PermanentFailure(f"template layout cannot be drawn: {error}") from None


def _stored_size(name: str) -> tuple[int, int] | None:
    """The pixel size of an image an earlier attempt stored; None if there is none."""
    if not default_storage.exists(name):
        return None
    with default_storage.open(name, "rb") as handle, Image.open(handle) as stored:
        return stored.size


def _copies_stored(name: str, width: int) -> bool:
    return all(default_storage.exists(variant_name(name, copy)) for copy in variant_widths(width))


def _template_image(template: Template, width: int) -> Image.Image:
    try:
        return _template_at_width(str(template.image.name), template.image_sha256, width)
    except ImageRejected as error:
        raise PermanentFailure(f"template image unusable: {error}") from None
    except (OSError, ValueError) as error:
        raise PermanentFailure(f"template image missing: {error}") from None


@lru_cache(maxsize=32)
def _template_at_width(name: str, sha256: str, width: int) -> Image.Image:
    """A template decoded and resized once per worker process; the hash in the
    key means a replaced image is loaded afresh. render_meme draws on a copy."""
    with default_storage.open(name, "rb") as handle:
        data = handle.read()
    return resized_template(load_image(data, name).image, width)


def _mark_ready(
    meme: GeneratedMeme, image_name: str, size: tuple[int, int], variants: list[int] | None
) -> int:
    now = timezone.now()
    return (
        memes()
        .filter(pk=meme.pk, status=GeneratedMeme.Status.QUEUED)
        .update(
            status=GeneratedMeme.Status.READY,
            image=image_name,
            image_variants=variants,
            width=size[0],
            height=size[1],
            ready_at=now,
            **outlet().scores_when_ready(meme, now),  # the site's own columns, e.g. its starting scores
        )
    )


# --- the sweeper ------------------------------------------------------------


@dataclass(frozen=True)
class Sweep:
    requeued_jobs: list[uuid.UUID]
    resent_jobs: list[uuid.UUID]
    failed_jobs: int
    resent_memes: list[int]


def sweep(now: datetime | None = None) -> Sweep:
    """Find work a dead worker or a lost message left behind and queue it again."""
    now = now or timezone.now()
    deadline = now - timedelta(seconds=settings.GENERATION_JOB_DEADLINE_SECONDS)
    stuck = GenerationJob.objects.filter(status=GenerationJob.Status.RUNNING, claimed_at__lt=deadline)
    failed = 0
    for job in stuck.filter(attempts__gte=GenerationJob.MAX_ATTEMPTS):
        job.fail(f"gave up after {job.attempts} attempts (a worker died or timed out each time)")
        failed += 1
    requeued = list(stuck.values_list("pk", flat=True))
    GenerationJob.objects.filter(pk__in=requeued, status=GenerationJob.Status.RUNNING).update(
        status=GenerationJob.Status.QUEUED, queued_at=now
    )
    lost = GenerationJob.objects.filter(status=GenerationJob.Status.QUEUED, queued_at__lt=deadline)
    resent = list(lost.values_list("pk", flat=True))
    GenerationJob.objects.filter(pk__in=resent).update(queued_at=now)
    waiting = (
        memes()
        .filter(status=GeneratedMeme.Status.QUEUED)
        .filter(Q(render_sent_at__lt=deadline) | Q(render_sent_at__isnull=True, created_at__lt=deadline))
    )
    unrendered = list(waiting.values_list("pk", flat=True))
    memes().filter(pk__in=unrendered).update(render_sent_at=now)
    return Sweep(requeued, resent, failed, unrendered)
