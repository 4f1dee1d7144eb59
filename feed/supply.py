"""How the feed asks for memes: the one door between what people do and the
generation pipeline. Jobs are rows first (the source of truth) and messages
second, sent only once the rows are committed."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from feed.models import GenerationJob, Meme, RateLimitBucket, Reaction, Template, UserSettings
from generation import bandit

log = logging.getLogger(__name__)

OPEN = (GenerationJob.Status.QUEUED, GenerationJob.Status.RUNNING)
# Ready memes younger than this count as stock; older ones have been around the feeds.
STOCK_WINDOW = timedelta(hours=24)
# Reactions older than this no longer steer generation: tastes change.
BANDIT_WINDOW = timedelta(days=14)
MEMES_PER_REQUEST = 4


class RequestRefused(Exception):
    """A "make a meme" request over a limit; the message says which and when to retry."""


def queue_jobs(job_ids: Iterable[Any]) -> None:
    """Send each job to the model queue once the transaction that made it commits."""
    for job_id in job_ids:
        transaction.on_commit(partial(send_job, str(job_id)))


def send_job(job_id: str) -> None:
    """A broker out of reach fails no request: the job is a row already, and the
    sweeper sends it again once it has waited past the deadline."""
    from generation.tasks import write_captions

    try:
        write_captions.delay([job_id])
    except BrokerError as error:
        log.warning("job %s not sent, the sweeper will send it: %s", job_id, error)


def create_job(
    template: Template, count: int, reason: str, user: Any = None, keywords: Any = ()
) -> GenerationJob:
    job = GenerationJob.objects.create(
        template=template, count=count, reason=reason, requested_by=user, keywords=list(keywords)
    )
    queue_jobs([job.pk])
    return job


def reader_is_running_low(user: Any, template: Template | None = None) -> GenerationJob | None:
    """A reader has fewer than 10 ready memes left they have not seen: make more
    for them, of the template they chose, else their preferred one, else what
    the bandit picks. At most one such job per reader is in flight."""
    if GenerationJob.objects.filter(
        requested_by=user, reason=GenerationJob.Reason.FEED, status__in=OPEN
    ).exists():
        return None
    template = template or _preferred_template(user) or _bandit_pick()
    if template is None:
        return None
    return create_job(template, settings.GENERATION_BATCH_SIZE, GenerationJob.Reason.FEED, user)


def request_memes(user: Any, template: Template | None, keywords: list[str]) -> GenerationJob:
    """ "Make a meme": a few variants for this user, within their limits and the site's."""
    if not RateLimitBucket.take(f"make:user:{user.pk}", settings.GENERATION_USER_LIMIT_PER_HOUR, 3600):
        raise RequestRefused(
            f"You can make {settings.GENERATION_USER_LIMIT_PER_HOUR} memes an hour; please try again later."
        )
    if not RateLimitBucket.take("make:all", settings.GENERATION_GLOBAL_LIMIT_PER_MINUTE, 60):
        raise RequestRefused("The meme machine is busy right now; please try again in a minute.")
    template = template or _bandit_pick()
    if template is None:
        raise RequestRefused("There are no active templates to make memes with.")
    return create_job(template, MEMES_PER_REQUEST, GenerationJob.Reason.REQUEST, user, keywords)


def top_up_stock() -> list[GenerationJob]:
    """Keep GENERATION_STOCK_PER_TEMPLATE fresh ready memes for every active template."""
    target = settings.GENERATION_STOCK_PER_TEMPLATE
    jobs = []
    templates = Template.objects.active().annotate(
        stock=Count(
            "memes",
            filter=Q(memes__status=Meme.Status.READY, memes__ready_at__gte=timezone.now() - STOCK_WINDOW),
        ),
        in_flight=Count("jobs", filter=Q(jobs__status__in=OPEN), distinct=True),
    )
    for template in templates.values("pk", "stock", "in_flight"):
        if template["in_flight"] or template["stock"] >= target:
            continue
        for count in _batches(target - template["stock"]):
            jobs.append(create_job(Template(pk=template["pk"]), count, GenerationJob.Reason.STOCK))
    return jobs


def _batches(total: int) -> list[int]:
    size = settings.GENERATION_BATCH_SIZE
    return [min(size, total - start) for start in range(0, total, size)]


def template_votes(since: Any = None) -> dict[int, bandit.Votes]:
    """Likes and dislikes per active template, from reactions since ``since``."""
    since = since or timezone.now() - BANDIT_WINDOW
    votes = {pk: bandit.Votes() for pk in Template.objects.active().values_list("pk", flat=True)}
    rows = (
        Reaction.objects.filter(updated_at__gte=since, meme__template_id__in=list(votes))
        .values("meme__template_id")
        .annotate(
            likes=Count("pk", filter=Q(value=Reaction.LIKE)),
            dislikes=Count("pk", filter=Q(value=Reaction.DISLIKE)),
        )
    )
    for row in rows:
        votes[row["meme__template_id"]] = bandit.Votes(row["likes"], row["dislikes"])
    return votes


def _bandit_pick(rng: random.Random | None = None) -> Template | None:
    picks = bandit.choose(template_votes(), 1, rng or random.Random())
    return Template.objects.filter(pk=picks[0]).first() if picks else None


def _preferred_template(user: Any) -> Template | None:
    preference = UserSettings.objects.filter(user=user).select_related("preferred_template").first()
    if preference and preference.preferred_template and preference.preferred_template.is_active:
        return preference.preferred_template
    return None
