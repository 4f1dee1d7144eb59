"""How the site asks for memes: the one door between what people do and the
generation pipeline. The feed calls ``reader_is_running_low`` as a reader nears
the end of their feed, the "make a meme" API calls ``request_memes``, and the
stock top-up runs on a schedule (generation.tasks). Jobs are rows first (the
source of truth) and messages second, sent only once the rows are committed.

What only the site knows (its readers' votes and preferences, which memes
still need votes) comes through generation.outlet; every limit is a policy of
the site's one limiter (memesite/limits.py)."""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.utils import timezone

from generation import bandit, steering, stock, tasks
from generation.models import GenerationJob, Template
from generation.outlet import memes, outlet
from generation.stock import OPEN, STOCK_WINDOW
from memesite import limits
from memesite.limits import Take

MEMES_PER_REQUEST = 4
# Jobs whose memes go to every reader's feed; a "make a meme" job's few variants
# are one reader's request, and do not stand in for them.
SUPPLY_REASONS = (GenerationJob.Reason.FEED, GenerationJob.Reason.STOCK, GenerationJob.Reason.DEMO)
BUSY = "The meme machine is busy right now; please try again in a few minutes."


class RequestRefused(Exception):
    """A "make a meme" request over a limit; the message says which, ``wait``
    when to retry (whole seconds, None when waiting will not help)."""

    def __init__(self, message: str, wait: int | None = None) -> None:
        super().__init__(message)
        self.wait = wait


def create_job(
    template: Template, count: int, reason: str, user: Any = None, keywords: Any = ()
) -> GenerationJob | None:
    """Queue a job for ``count`` memes within the site's hourly budget of memes; None when spent."""
    job = stock.create_job(template, count, reason, user, keywords)
    if job is not None:
        tasks.queue_jobs([job.pk])
    return job


def reader_is_running_low(user: Any, template: Template | None = None) -> GenerationJob | None:
    """A reader has been served all but fewer than 10 of the ready memes they
    read (feed.ranking.pages): make more, of the template they chose, else their
    preferred one, else what the bandit picks. Unless more are on their way or
    plenty are there already, so that a script paging as fast as it can costs
    the workers no more than a person:

    * the reader has a feed job in flight, or the template has a feed or stock
      job in flight (its memes reach this reader at their next page);
    * the template holds GENERATION_TEMPLATE_CEILING memes made in the last day
      that few readers have voted on: enough for anyone, however many read it;
    * the reader's jobs are used up (the ``feed_jobs`` policy, THROTTLE_FEED_JOBS);
    * the site's budget of memes is spent (create_job)."""
    if GenerationJob.objects.filter(
        requested_by=user, reason=GenerationJob.Reason.FEED, status__in=OPEN
    ).exists():
        return None
    template = template or outlet().preferred_template(user) or _bandit_pick()
    if template is None or _supply_on_its_way(template) or _plenty_in_stock(template):
        return None
    if not limits.take("feed_jobs", limits.reader(user)):
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
    fresh = memes().filter(
        outlet().few_votes(), template=template, created_at__gte=timezone.now() - STOCK_WINDOW
    )
    return fresh.order_by()[:ceiling].count() >= ceiling


def request_memes(user: Any, template: Template | None, keywords: list[str]) -> GenerationJob:
    """ "Make a meme": a few variants for this user, within their limits and the
    site's. Besides the reader's requests a minute, which the API's throttle
    takes (the ``generation`` policy), a request takes, in this order: one of
    the reader's an hour, one of the site's a minute, its memes from the
    requests' share of memes and then from the site's budget of memes."""
    refusal = limits.refused(
        Take("generation_hourly", limits.reader(user)),
        Take("generation_site"),
        Take("request_memes", amount=MEMES_PER_REQUEST),
    )
    if refusal is not None:
        raise RequestRefused(_refused_because(refusal.policy), refusal.wait)
    template = template or _bandit_pick()
    if template is None:
        raise RequestRefused("There are no active templates to make memes with.")
    job = create_job(template, MEMES_PER_REQUEST, GenerationJob.Reason.REQUEST, user, keywords)
    if job is None:
        raise RequestRefused(BUSY, limits.retry_after("site_memes", amount=MEMES_PER_REQUEST))
    return job


def _refused_because(policy: str) -> str:
    if policy != "generation_hourly":
        return BUSY  # the site's limits: nothing the reader did
    rate = limits.rate(policy)
    noun = "meme" if rate.uses == 1 else "memes"
    return f"You can make {rate.uses} {noun} {rate.each_period()}; please try again later."


def _bandit_pick(rng: random.Random | None = None) -> Template | None:
    picks = bandit.choose(steering.template_votes(), 1, rng or random.Random())
    return Template.objects.filter(pk=picks[0]).first() if picks else None
