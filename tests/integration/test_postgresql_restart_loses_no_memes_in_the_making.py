"""PostgreSQL restarted while a worker makes 50 memes: the task that lost its
connection is retried, the sweeper resends what was left, and exactly 50
memes end ready (or failed with a reason), none stuck, none twice."""

from __future__ import annotations

import os
from typing import Any

import pytest
from celery import Celery

from feed.models import GenerationJob
from tests.conftest import make_template
from tests.integration.conftest import FAST_SWEEP, every_job_ends_with_each_meme_once, wait_for
from tests.integration.restart import restart_postgres

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

JOBS, MEMES_PER_JOB = 10, 5


def test_memes_in_the_making_survive_a_postgresql_restart(start_worker: Any) -> None:
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        pytest.skip("needs the PostgreSQL and Redis servers that `python -m tests.servers` starts")
    template = make_template()
    sender = Celery(broker=broker)
    for _ in range(JOBS):
        job = GenerationJob.objects.create(template=template, count=MEMES_PER_JOB)
        sender.send_task("generation.tasks.write_captions", args=[[str(job.pk)]], queue="model")
    sender.close()

    worker = start_worker(broker, FAST_SWEEP, "-B")
    wait_for(lambda: GenerationJob.objects.filter(status="done").exists(), 60, "the worker to finish a job")
    restart_postgres(down_seconds=2)  # mid-batch: jobs claimed, captions and renders in flight
    every_job_ends_with_each_meme_once(JOBS * MEMES_PER_JOB)
    assert worker.poll() is None, "the worker died with the database"
