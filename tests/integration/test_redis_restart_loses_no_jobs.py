"""Queue 50 memes on Redis, restart Redis (which keeps nothing) before a worker
starts or while it works: every queued message is gone, yet the sweeper sends
the lost work again and the same worker, reconnected, makes exactly 50 memes,
none stuck, none twice."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from generation.models import GenerationJob
from tests.integration.conftest import (
    FAST_SWEEP,
    JOBS,
    MEMES_PER_JOB,
    every_job_ends_with_each_meme_once,
    queue_jobs,
    wait_for,
)
from tests.integration.restart import restart_redis

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def restart_losing_the_queue(broker: str) -> None:
    with redis.Redis.from_url(broker) as server:
        assert server.llen("model") > 0, "nothing was queued when Redis went down"
        restart_redis()
        assert server.llen("model") == 0  # the restart lost every queued message


def test_jobs_queued_before_a_redis_restart_are_all_made(redis_broker: str, start_worker: Any) -> None:
    queue_jobs(redis_broker)
    restart_losing_the_queue(redis_broker)
    start_worker(redis_broker, FAST_SWEEP, "-B")
    every_job_ends_with_each_meme_once(JOBS * MEMES_PER_JOB)


def test_a_worker_reconnects_after_a_redis_restart_and_makes_every_job(
    redis_broker: str, start_worker: Any
) -> None:
    queue_jobs(redis_broker)
    worker = start_worker(redis_broker, FAST_SWEEP, "-B")
    wait_for(lambda: GenerationJob.objects.filter(status="running").exists(), 60, "the worker to claim a job")
    restart_losing_the_queue(redis_broker)  # mid-task: the worker holds one message unacknowledged
    every_job_ends_with_each_meme_once(JOBS * MEMES_PER_JOB)
    assert worker.poll() is None, "the worker gave up instead of reconnecting"
