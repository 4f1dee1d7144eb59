"""What generation owns: the templates it draws on, the jobs that ask it for
memes, and the life of a meme while it is being made.

``Template`` and ``GenerationJob`` keep the tables the feed app created for
them (``feed_template``, ``feed_generationjob``): they moved here without their
rows moving. A meme's row belongs to the site that shows it (feed.Meme, with
its votes and scores); ``GeneratedMeme`` is the part of that row generation
writes, and the site's meme model extends it (generation/outlet.py says how
generation finds it).
"""

from __future__ import annotations

import contextlib
import uuid
from datetime import UTC, datetime
from typing import Any, Self, TypeVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Case, Count, F, Max, OuterRef, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from generation.captions.config import trained_templates
from generation.captions.formats import CaptionFormat, caption_format
from generation.layout import LayoutError, boxes_to_json, parse_boxes
from generation.moderation import refusal, shown_form


def validate_boxes(value: Any) -> None:
    try:
        parse_boxes(value)
    except LayoutError as error:
        raise ValidationError(error.problems) from None  # every problem of every box at once


def validate_text_list(value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValidationError("must be a list of texts")


def checked_text(text: str) -> str:
    """Curator text as memes show it, or ValidationError saying why it may not be shown."""
    refused = refusal(text)
    if refused is not None:
        raise ValidationError(f"{shown_form(text)!r} {refused.message}")
    return shown_form(text)


def validate_captions(value: Any) -> None:
    if not isinstance(value, list) or not all(
        isinstance(caption, list) and all(isinstance(box, str) for box in caption) for caption in value
    ):
        raise ValidationError("example captions must be a list of captions, each a list of box texts")


_T = TypeVar("_T", bound="Template")


class TemplateQuerySet(models.QuerySet[_T]):
    def active(self) -> Self:
        return self.filter(is_active=True)


# Example captions beyond this many add nothing for a template the model never saw.
MAX_EXAMPLES = 20


class Template(models.Model):
    """A picture to caption and where its text goes: what curators give generation."""

    class MarkPosition(models.TextChoices):
        BOTTOM_RIGHT = "bottom-right", "bottom right"
        BOTTOM_LEFT = "bottom-left", "bottom left"
        TOP_RIGHT = "top-right", "top right"
        TOP_LEFT = "top-left", "top left"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    image = models.ImageField(upload_to="templates/")
    image_sha256 = models.CharField(max_length=64, editable=False, default="")
    alternative_names = models.JSONField(default=list, blank=True, validators=[validate_text_list])
    keywords = models.JSONField(default=list, blank=True, validators=[validate_text_list])
    example_captions = models.JSONField(default=list, blank=True, validators=[validate_captions])
    boxes = models.JSONField(validators=[validate_boxes])
    # The caption model's name for this template (its ImgFlip slug); blank for
    # templates it never saw, which it writes for through a generic token.
    model_key = models.CharField(max_length=120, blank=True, default="")
    mark_position = models.CharField(
        max_length=20, choices=MarkPosition.choices, default=MarkPosition.BOTTOM_RIGHT
    )
    is_active = models.BooleanField(default=True)
    # The feed's figure, kept on the template's row for its ranking: the share of
    # likes among votes on this template's memes, smoothed toward the site-wide
    # prior (feed.models.Template.objects.refresh_like_rates). Generation never reads it.
    like_rate = models.FloatField(default=0.5)
    source = models.URLField(blank=True, default="")
    credit = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = TemplateQuerySet.as_manager()

    class Meta:
        db_table = "feed_template"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def box_count(self) -> int:
        return len(self.boxes)

    def example_texts(self) -> list[str]:
        """The curator's example captions as the caption model reads them, boxes joined by " | "."""
        return [" | ".join(caption) for caption in self.example_captions[:MAX_EXAMPLES]]

    def caption_format(self) -> CaptionFormat:
        """Where this template's joke format comes from for the caption model, said plainly."""
        trained = trained_templates(settings.CAPTION_MODEL_DIR)
        return caption_format(self.model_key, trained, self.example_texts(), self.box_count)

    def clean(self) -> None:
        """Boxes in their normal form (font aliases resolved, defaults filled in) and curator
        text as memes show it. Bad boxes are the field validator's to report, once: a form that
        already refused them leaves the old value here, which must not add a second error."""
        with contextlib.suppress(LayoutError):
            self.boxes = boxes_to_json(parse_boxes(self.boxes))
        errors = self.fold_curator_texts()
        if errors:
            raise ValidationError(errors)

    def fold_curator_texts(self) -> dict[str, str]:
        """Name, alternative names, keywords and example captions in the form memes show text
        (NFKC), each through the check every shown text passes; {field: why} for a refused one."""
        errors: dict[str, str] = {}
        try:
            self.name = checked_text(self.name)
        except ValidationError as error:
            errors["name"] = " ".join(error.messages)
        for name in ("alternative_names", "keywords"):
            texts = getattr(self, name)
            if isinstance(texts, list) and all(isinstance(t, str) for t in texts):
                try:
                    setattr(self, name, [checked_text(t) for t in texts])
                except ValidationError as error:
                    errors[name] = " ".join(error.messages)
        captions = self.example_captions
        if isinstance(captions, list) and all(isinstance(c, list) for c in captions):
            try:  # a caption is judged whole, boxes joined, as generated captions are
                for caption in captions:
                    checked_text(" | ".join(map(str, caption)))
                self.example_captions = [[shown_form(str(box)) for box in c] for c in captions]
            except ValidationError as error:
                errors["example_captions"] = " ".join(error.messages)
        return errors


class GenerationJobQuerySet(models.QuerySet["GenerationJob"]):
    def in_turn(self) -> GenerationJobQuerySet:
        """Queued jobs in the order caption workers take them: readers' own
        requests ("make a meme") before the feed's and the stock's batches, so
        a reader waits for at most the batch in hand; among requests, the
        reader served longest ago first (never served: first of all), so
        readers take turns and one reader's many requests cannot hold
        another's back; among readers not yet served, the one with the fewest
        jobs open; then the oldest."""
        requesters_jobs = GenerationJob.objects.filter(requested_by=OuterRef("requested_by")).order_by()
        last_served = requesters_jobs.values("requested_by").annotate(last=Max("claimed_at")).values("last")
        jobs_open = (
            requesters_jobs.filter(status__in=(GenerationJob.Status.QUEUED, GenerationJob.Status.RUNNING))
            .values("requested_by")
            .annotate(open=Count("pk"))
            .values("open")
        )
        return (
            self.filter(status=GenerationJob.Status.QUEUED)
            .annotate(
                batch=Case(When(reason=GenerationJob.Reason.REQUEST, then=Value(0)), default=Value(1)),
                requester_served=Coalesce(Subquery(last_served), Value(NEVER)),
                requester_open=Coalesce(Subquery(jobs_open), Value(0)),
            )
            .order_by("batch", "requester_served", "requester_open", "queued_at", "pk")
        )


NEVER = datetime(1970, 1, 1, tzinfo=UTC)  # the last time a reader never served was served


class GenerationJob(models.Model):
    """One request for memes: by the stock top-up, a user's scroll, or "make a meme".

    A worker claims it with a conditional update (queued → running); a sweeper
    puts jobs back to queued when their claim is older than the deadline."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    class Reason(models.TextChoices):
        STOCK = "stock", "stock top-up"
        FEED = "feed", "a reader near the end of the feed"
        REQUEST = "request", "make a meme"
        DEMO = "demo", "demo pack"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    template = models.ForeignKey(Template, on_delete=models.CASCADE, related_name="jobs")
    keywords = models.JSONField(default=list, blank=True)
    count = models.PositiveSmallIntegerField(default=1)
    reason = models.CharField(max_length=10, choices=Reason.choices, default=Reason.STOCK)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Set once every caption of the job is written and its memes exist as rows.
    captions_written = models.BooleanField(default=False)
    # When a message for this job last went to the broker: the sweeper sends it
    # again when a queued job has waited past the deadline (a lost message).
    queued_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    MAX_ATTEMPTS = 3

    objects = GenerationJobQuerySet.as_manager()

    class Meta:
        db_table = "feed_generationjob"
        indexes = [
            models.Index(fields=["status", "claimed_at"], name="job_status_claimed"),
            models.Index(fields=["status", "queued_at"], name="job_status_queued"),
            models.Index(fields=["requested_by", "status"], name="job_requester_status"),
        ]

    def __str__(self) -> str:
        return f"{self.count} × {self.template} ({self.reason}, {self.status})"

    def claim(self) -> bool:
        """Take the job for this worker; False when another worker has it or it is done."""
        claimed = GenerationJob.objects.filter(pk=self.pk, status=self.Status.QUEUED).update(
            status=self.Status.RUNNING, claimed_at=timezone.now(), attempts=F("attempts") + 1
        )
        return claimed == 1

    def release(self) -> None:
        """Give a running job back to the queue after a transient failure."""
        GenerationJob.objects.filter(pk=self.pk, status=self.Status.RUNNING).update(
            status=self.Status.QUEUED, queued_at=timezone.now()
        )

    def fail(self, reason: str) -> None:
        """End the job for good; its memes that never rendered fail with the same reason."""
        with transaction.atomic():
            GenerationJob.objects.filter(pk=self.pk).exclude(status=self.Status.DONE).update(
                status=self.Status.FAILED, error=reason[:2000], finished_at=timezone.now()
            )
            self.memes.filter(status=GeneratedMeme.Status.QUEUED).update(
                status=GeneratedMeme.Status.FAILED, failure_reason=reason[:2000]
            )

    def finish_if_complete(self) -> bool:
        """Mark the job done once its captions are written and none of its memes waits to render."""
        if self.memes.filter(status=GeneratedMeme.Status.QUEUED).exists():
            return False
        done = GenerationJob.objects.filter(
            pk=self.pk, status=self.Status.RUNNING, captions_written=True
        ).update(status=self.Status.DONE, finished_at=timezone.now())
        return done == 1

    def memes_shown(self) -> models.QuerySet[GeneratedMeme]:
        """The job's memes as its reader may see them, in the order they were
        made: all but those the site's moderators hid."""
        return self.memes.exclude(status=GeneratedMeme.Status.HIDDEN).order_by("pk")


class GeneratedMeme(models.Model):
    """The part of a meme's row that generation writes: what it was made from,
    where it is on its way (queued → ready or failed), and its rendered image.

    Abstract: the site that shows memes extends it with what its readers do
    (feed.Meme: votes, scores) and hands the concrete model to generation
    through its outlet. Every meme a job makes has a generation id derived from
    the job, so a retried job finds the memes it already made."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        READY = "ready"
        FAILED = "failed"
        HIDDEN = "hidden"  # taken out of view by the site's moderators

    template = models.ForeignKey(Template, on_delete=models.PROTECT, related_name="memes")
    texts = models.JSONField(default=list)
    keywords = models.JSONField(default=list, blank=True)
    image = models.ImageField(upload_to="memes/", blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    failure_reason = models.TextField(blank=True, default="")
    # Unique per generated meme, derived from its job: a retried or redelivered
    # job finds its memes by this id instead of making them twice.
    generation_id = models.UUIDField(unique=True, default=uuid.uuid4, editable=False)
    job = models.ForeignKey(
        GenerationJob, on_delete=models.SET_NULL, null=True, blank=True, related_name="memes"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    model_version = models.CharField(max_length=64, blank=True, default="")
    sampling = models.JSONField(default=dict, blank=True)
    # When a render message for this meme last went to the broker (see sweeper).
    render_sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    ready_at = models.DateTimeField(null=True, blank=True)
    # Pixel size of the rendered image, so pages reserve its space before it loads.
    width = models.PositiveIntegerField(null=True, blank=True)
    height = models.PositiveIntegerField(null=True, blank=True)
    # Widths of the lighter WebP copies stored beside the image, smallest first
    # (generation.render.variants); None until someone looked for them (memes
    # made before copies existed: manage.py make_image_variants).
    image_variants = models.JSONField(null=True, blank=True, default=None)

    class Meta:
        abstract = True

    @property
    def caption(self) -> str:
        return " / ".join(text for text in self.texts if text)
