"""Queue 50 memes, SIGKILL the worker while it works, start a new one: exactly
50 memes end ready (or failed with a reason), none stuck, none twice. On the
server-less default broker (with SQLite) and on Redis (with PostgreSQL)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from django.db import connection

from feed.models import GenerationJob, Meme
from tests.conftest import make_template

ROOT = Path(__file__).resolve().parents[2]
JOBS, MEMES_PER_JOB = 10, 5


def database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.fixture
def start_worker(tmp_path: Path, media_in_tmp: Path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []

    def start(broker: str, extra: dict[str, str], *options: str) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": broker,
            "MEDIA_ROOT": str(media_in_tmp),
            "CELERY_TASK_ALWAYS_EAGER": "false",
            **extra,
        }
        log = (tmp_path / f"worker-{len(started)}.log").open("wb")
        worker = subprocess.Popen(
            [sys.executable, "-m", "tests.fake_model_worker", "-Q", "model,default", "--pool", "solo",
             "--loglevel", "INFO", "-n", f"crash{len(started)}@%h", "--schedule", str(tmp_path / "beat"),
             *options],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        started.append(worker)
        return worker

    yield start
    for worker in started:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def crash_and_recover(broker: str, start_worker: Any) -> None:
    template = make_template()
    jobs = [GenerationJob.objects.create(template=template, count=MEMES_PER_JOB) for _ in range(JOBS)]
    sender = Celery(broker=broker)
    for job in jobs:
        sender.send_task("generation.tasks.write_captions", args=[[str(job.pk)]], queue="model")

    first = start_worker(broker, {})
    wait_for(lambda: Meme.objects.filter(status="ready").exists(), 60, "the first worker to make a meme")
    os.killpg(first.pid, signal.SIGKILL)  # mid-batch: it still has jobs claimed and messages unacked
    first.wait()
    assert GenerationJob.objects.exclude(status="done").exists(), "the kill came too late to test anything"

    # The replacement runs the sweeper every second with a 3-second deadline.
    start_worker(
        broker, {"GENERATION_JOB_DEADLINE_SECONDS": "3", "SWEEP_SECONDS": "1", "TOP_UP_SECONDS": "3600"}, "-B"
    )
    wait_for(
        lambda: (
            not GenerationJob.objects.exclude(status__in=["done", "failed"]).exists()
            and not Meme.objects.filter(status="queued").exists()
        ),
        120,
        "every job to finish",
    )

    memes = Meme.objects.all()
    assert memes.count() == JOBS * MEMES_PER_JOB
    assert memes.values("generation_id").distinct().count() == JOBS * MEMES_PER_JOB
    for meme in memes:
        assert meme.status == "ready" or (meme.status == "failed" and meme.failure_reason)


@pytest.mark.django_db(transaction=True)
def test_the_default_broker_recovers_from_a_killed_worker(start_worker: Any, tmp_path: Path) -> None:
    if not connection.settings_dict["ENGINE"].endswith("sqlite3"):
        pytest.skip("the embedded setup is SQLite with the server-less broker")
    crash_and_recover(f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}", start_worker)


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_redis_recovers_from_a_killed_worker(start_worker: Any) -> None:
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        pytest.skip("needs the Redis server that `python -m tests.servers` starts")
    # Celery reads CELERY_BROKER_URL from the environment before any argument,
    # so the sender and the workers use that one.
    crash_and_recover(broker, start_worker)
