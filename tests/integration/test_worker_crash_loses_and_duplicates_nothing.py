"""Queue 50 memes, SIGKILL the worker while it works, start a new one: exactly
50 memes end ready (or failed with a reason), none stuck, none twice. On the
server-less default broker (with SQLite) and on Redis (with PostgreSQL)."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from feed.models import Meme
from generation.models import GenerationJob
from tests.integration.conftest import (
    FAST_SWEEP,
    JOBS,
    MEMES_PER_JOB,
    every_job_ends_with_each_meme_once,
    queue_jobs,
    wait_for,
)


def crash_and_recover(broker: str, start_worker: Any) -> None:
    queue_jobs(broker)
    first = start_worker(broker, {})
    wait_for(lambda: Meme.objects.filter(status="ready").exists(), 60, "the first worker to make a meme")
    os.killpg(first.pid, signal.SIGKILL)  # mid-batch: it still has jobs claimed and messages unacked
    first.wait()
    assert GenerationJob.objects.exclude(status="done").exists(), "the kill came too late to test anything"

    start_worker(broker, FAST_SWEEP, "-B")  # the replacement sweeps what the first left behind
    every_job_ends_with_each_meme_once(JOBS * MEMES_PER_JOB)


@pytest.mark.django_db(transaction=True)
def test_the_default_broker_recovers_from_a_killed_worker(start_worker: Any, tmp_path: Path) -> None:
    if not connection.settings_dict["ENGINE"].endswith("sqlite3"):
        pytest.skip("the embedded setup is SQLite with the server-less broker")
    crash_and_recover(f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}", start_worker)


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_redis_recovers_from_a_killed_worker(redis_broker: str, start_worker: Any) -> None:
    # Celery reads CELERY_BROKER_URL from the environment before any argument,
    # so the sender and the workers use that one.
    crash_and_recover(redis_broker, start_worker)
