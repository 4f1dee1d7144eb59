"""New jobs: each within the site's hourly budget of memes, whatever asks for
it, and the top-up that keeps every active template stocked, the liked ones more.

Rows only: a job is the source of truth, and its message goes to the workers
once its row commits (generation.tasks.queue_jobs), sent by whoever made it."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from generation import steering
from generation.models import GeneratedMeme, GenerationJob, Template
from memesite import limits

log = logging.getLogger(__name__)

OPEN = (GenerationJob.Status.QUEUED, GenerationJob.Status.RUNNING)
# Ready memes younger than this count as stock; older ones have been around the feeds.
STOCK_WINDOW = timedelta(hours=24)


def create_job(
    template: Template, count: int, reason: str, user: Any = None, keywords: Iterable[str] = ()
) -> GenerationJob | None:
    """A job for ``count`` memes, within the site's budget of memes (the
    ``site_memes`` policy, whatever asks: scrolling, "make a meme", the stock
    top-up); None when spent."""
    if not limits.take("site_memes", amount=count):
        log.warning("site-wide budget of memes spent: no %s job of %d for %s", reason, count, template.pk)
        return None
    return GenerationJob.objects.create(
        template=template, count=count, reason=reason, requested_by=user, keywords=list(keywords)
    )


def top_up_stock() -> list[GenerationJob]:
    """Jobs that bring every active template to its stock target (steering.stock_targets:
    GENERATION_STOCK_PER_TEMPLATE fresh ready memes on average, more for templates
    readers like), as far as the site's hourly budget of memes goes.

    The targets follow votes because on a site where few readers reach the end
    of their feed nearly every new meme is a top-up: with the same target for
    every template, votes steered almost nothing (docs/feed.md has the figures)."""
    targets = steering.stock_targets(steering.template_votes())
    jobs: list[GenerationJob] = []
    templates = Template.objects.active().annotate(
        stock=Count(
            "memes",
            filter=Q(
                memes__status=GeneratedMeme.Status.READY,
                memes__ready_at__gte=timezone.now() - STOCK_WINDOW,
            ),
        ),
        in_flight=Count("jobs", filter=Q(jobs__status__in=OPEN), distinct=True),
    )
    for template in templates.values("pk", "stock", "in_flight"):
        target = targets.get(template["pk"], 0)
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
