"""Queue 50 memes on Redis, restart Redis (which keeps nothing) before a worker
starts or while it works: every queued message is gone, yet the sweeper sends
the lost work again and the same worker, reconnected, makes exactly 50 memes,
none stuck, none twice."""

from __future__ import annotations

import os
from typing import Any

import pytest
import redis
from celery import Celery

from feed.models import GenerationJob
from tests.conftest import make_template
from tests.integration.conftest import FAST_SWEEP, every_job_ends_with_each_meme_once, wait_for
from tests.integration.restart import restart_redis

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

JOBS, MEMES_PER_JOB = 10, 5


@pytest.fixture
def broker() -> str:
    url = os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis://"):
        pytest.skip("needs the Redis server that `python -m tests.servers` starts")
    return url


def queue_jobs(broker: str) -> None:
    template = make_template()
    sender = Celery(broker=broker)
    for _ in range(JOBS):
        job = GenerationJob.objects.create(template=template, count=MEMES_PER_JOB)
        sender.send_task("generation.tasks.write_captions", args=[[str(job.pk)]], queue="model")
    sender.close()


def restart_losing_the_queue(broker: str) -> None:
    with redis.Redis.from_url(broker) as server:
        assert server.llen("model") > 0, "nothing was queued when Redis went down"
        restart_redis()
        assert server.llen("model") == 0  # the restart lost every queued message


def test_jobs_queued_before_a_redis_restart_are_all_made(broker: str, start_worker: Any) -> None:
    queue_jobs(broker)
    restart_losing_the_queue(broker)
    start_worker(broker, FAST_SWEEP, "-B")
    every_job_ends_with_each_meme_once(JOBS * MEMES_PER_JOB)


def test_a_worker_reconnects_after_a_redis_restart_and_makes_every_job(
    broker: str, start_worker: Any
) -> None:
    queue_jobs(broker)
    worker = start_worker(broker, FAST_SWEEP, "-B")
    wait_for(lambda: GenerationJob.objects.filter(status="running").exists(), 60, "the worker to claim a job")
    restart_losing_the_queue(broker)  # mid-task: the worker holds one message unacknowledged
    every_job_ends_with_each_meme_once(JOBS * MEMES_PER_JOB)
    assert worker.poll() is None, "the worker gave up instead of reconnecting"
