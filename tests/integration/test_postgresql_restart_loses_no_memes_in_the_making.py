"""PostgreSQL restarted while a worker makes 50 memes: the task that lost its
connection is retried, the sweeper resends what was left, and exactly 50
memes end ready (or failed with a reason), none stuck, none twice."""

from __future__ import annotations

from typing import Any

import pytest

from generation.models import GenerationJob
from tests.integration.conftest import (
    FAST_SWEEP,
    JOBS,
    MEMES_PER_JOB,
    every_job_ends_with_each_meme_once,
    queue_jobs,
    wait_for,
)
from tests.integration.restart import restart_postgres

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_memes_in_the_making_survive_a_postgresql_restart(redis_broker: str, start_worker: Any) -> None:
    queue_jobs(redis_broker)
    worker = start_worker(redis_broker, FAST_SWEEP, "-B")
    wait_for(lambda: GenerationJob.objects.filter(status="done").exists(), 60, "the worker to finish a job")
    restart_postgres(down_seconds=2)  # mid-batch: jobs claimed, captions and renders in flight
    every_job_ends_with_each_meme_once(JOBS * MEMES_PER_JOB)
    assert worker.poll() is None, "the worker died with the database"
