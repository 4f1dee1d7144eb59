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

from feed import limits
from feed.limits import Rate
from feed.models import FEW_VOTES_READY, GenerationJob, Meme, Reaction, Template, UserSettings
from generation import bandit

log = logging.getLogger(__name__)

OPEN = (GenerationJob.Status.QUEUED, GenerationJob.Status.RUNNING)
# Ready memes younger than this count as stock; older ones have been around the feeds.
STOCK_WINDOW = timedelta(hours=24)
# Reactions older than this no longer steer generation: tastes change.
BANDIT_WINDOW = timedelta(days=14)
MEMES_PER_REQUEST = 4
# Jobs whose memes go to every reader's feed; a "make a meme" job's few variants
# are one reader's request, and do not stand in for them.
SUPPLY_REASONS = (GenerationJob.Reason.FEED, GenerationJob.Reason.STOCK, GenerationJob.Reason.DEMO)
BUSY = "The meme machine is busy right now; please try again in a few minutes."


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
) -> GenerationJob | None:
    """Queue a job for ``count`` memes, within the site's hourly budget of memes
    (whatever asks: scrolling, "make a meme", the stock top-up); None when spent."""
    if not limits.take("memes:site", Rate.per_hour(settings.GENERATION_SITE_MEMES_PER_HOUR), count):
        log.warning("site-wide budget of memes spent: no %s job of %d for %s", reason, count, template.pk)
        return None
    job = GenerationJob.objects.create(
        template=template, count=count, reason=reason, requested_by=user, keywords=list(keywords)
    )
    queue_jobs([job.pk])
    return job


def reader_is_running_low(user: Any, template: Template | None = None) -> GenerationJob | None:
    """A reader has been served all but fewer than 10 of the ready memes they
    read (feed.ranking): make more, of the template they chose, else their
    preferred one, else what the bandit picks. Unless more are on their way or
    plenty are there already, so that a script paging as fast as it can costs
    the workers no more than a person:

    * the reader has a feed job in flight, or the template has a feed or stock
      job in flight (its memes reach this reader at their next page);
    * the template holds GENERATION_TEMPLATE_CEILING memes made in the last day
      that few readers have voted on: enough for anyone, however many read it;
    * the reader's GENERATION_READER_JOBS_PER_HOUR jobs an hour are used up;
    * the site's hourly budget of memes is spent (create_job)."""
    if GenerationJob.objects.filter(
        requested_by=user, reason=GenerationJob.Reason.FEED, status__in=OPEN
    ).exists():
        return None
    template = template or _preferred_template(user) or _bandit_pick()
    if template is None or _supply_on_its_way(template) or _plenty_in_stock(template):
        return None
    if not limits.take(
        f"feed-jobs:reader:{user.pk}", Rate.per_hour(settings.GENERATION_READER_JOBS_PER_HOUR)
    ):
        return None
    return create_job(template, settings.GENERATION_BATCH_SIZE, GenerationJob.Reason.FEED, user)


def _supply_on_its_way(template: Template) -> bool:
    return GenerationJob.objects.filter(
        template=template, reason__in=SUPPLY_REASONS, status__in=OPEN
    ).exists()


def _plenty_in_stock(template: Template) -> bool:
    """The template's fresh memes with few votes reach the ceiling. Counted
    through the index of new memes with few votes, and no further than the ceiling."""
    ceiling = settings.GENERATION_TEMPLATE_CEILING
    fresh = Meme.objects.filter(
        FEW_VOTES_READY, template=template, created_at__gte=timezone.now() - STOCK_WINDOW
    )
    return fresh.order_by()[:ceiling].count() >= ceiling


def request_memes(user: Any, template: Template | None, keywords: list[str]) -> GenerationJob:
    """ "Make a meme": a few variants for this user, within their limits and the site's."""
    if not limits.take(f"make:reader:{user.pk}", Rate.per_hour(settings.GENERATION_USER_LIMIT_PER_HOUR)):
        raise RequestRefused(
            f"You can make {settings.GENERATION_USER_LIMIT_PER_HOUR} memes an hour; please try again later."
        )
    if not limits.take("make:site", Rate.per_minute(settings.GENERATION_GLOBAL_LIMIT_PER_MINUTE)):
        raise RequestRefused(BUSY)
    template = template or _bandit_pick()
    if template is None:
        raise RequestRefused("There are no active templates to make memes with.")
    job = create_job(template, MEMES_PER_REQUEST, GenerationJob.Reason.REQUEST, user, keywords)
    if job is None:
        raise RequestRefused(BUSY)
    return job


def top_up_stock() -> list[GenerationJob]:
    """Keep GENERATION_STOCK_PER_TEMPLATE fresh ready memes for every active
    template, as far as the site's hourly budget of memes goes."""
    target = settings.GENERATION_STOCK_PER_TEMPLATE
    jobs: list[GenerationJob] = []
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
            job = create_job(Template(pk=template["pk"]), count, GenerationJob.Reason.STOCK)
            if job is None:
                return jobs
            jobs.append(job)
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
