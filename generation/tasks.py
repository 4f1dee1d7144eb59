"""Celery tasks: thin wrappers that take ids and call generation.jobs, and the
sending of jobs to them.

Caption writing runs on the ``model`` queue (GPU workers: one solo process per
GPU); rendering and housekeeping on ``default`` (CELERY_TASK_ROUTES in settings). Every task is safe to retry
and to receive twice. Task names are the messages' addresses: a rename must keep
the old name as well, or messages already queued under it are lost.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from functools import partial

from celery import shared_task
from django.db import DatabaseError, transaction
from kombu.exceptions import OperationalError as BrokerError

from generation import jobs, stock

log = logging.getLogger(__name__)

# Transient failures (a database restart, a full disk) are retried with backoff.
TRANSIENT = (DatabaseError, OSError)


def queue_jobs(job_ids: Iterable[uuid.UUID]) -> None:
    """Send each job to the model queue once the transaction that made it commits."""
    for job_id in job_ids:
        transaction.on_commit(partial(send_job, str(job_id)))


def send_job(job_id: str) -> None:
    """A broker out of reach fails no request: the job is a row already, and the
    sweeper sends it again once it has waited past the deadline."""
    try:
        write_captions.delay([job_id])
    except BrokerError as error:
        log.warning("job %s not sent, the sweeper will send it: %s", job_id, error)


@shared_task(acks_late=True, autoretry_for=TRANSIENT, retry_backoff=2, max_retries=5)
def write_captions(job_ids: list[str]) -> int:
    # A message is a turn for as many jobs as it names, taken in the order that
    # serves readers' requests first and fairly (generation.jobs).
    waiting = jobs.write_captions_in_turn(len(job_ids))
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
    queue_jobs(job.pk for job in stock.top_up_stock())
