"""Celery tasks: thin wrappers that take ids and call generation.jobs.

Caption writing runs on the ``model`` queue (GPU workers: one solo process per
GPU); rendering and housekeeping on ``default`` (CELERY_TASK_ROUTES in settings). Every task is safe to retry
and to receive twice.
"""

from __future__ import annotations

import uuid

from celery import shared_task
from django.db import DatabaseError

from generation import jobs

# Transient failures (a database restart, a full disk) are retried with backoff.
TRANSIENT = (DatabaseError, OSError)


@shared_task(acks_late=True, autoretry_for=TRANSIENT, retry_backoff=2, max_retries=5)
def write_captions(job_ids: list[str]) -> int:
    waiting = jobs.write_captions(uuid.UUID(job_id) for job_id in job_ids)
    if waiting:
        render_memes.delay(waiting)
    return len(waiting)


@shared_task(acks_late=True, autoretry_for=TRANSIENT, retry_backoff=2, max_retries=5)
def render_memes(meme_ids: list[int]) -> int:
    return jobs.render_memes(meme_ids)


@shared_task
def sweep() -> None:
    found = jobs.sweep()
    for job_id in [*found.requeued_jobs, *found.resent_jobs]:
        write_captions.delay([str(job_id)])
    if found.resent_memes:
        render_memes.delay(found.resent_memes)


@shared_task
def top_up_stock() -> None:
    from feed.supply import top_up_stock as top_up

    top_up()
