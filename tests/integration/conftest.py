"""What the integration tests share: the test database's URL for processes
they start, waiting for a condition, and a real Celery worker (the product's
code with the test caption model) that a test can start, kill and restart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import connection

from feed.models import GenerationJob, Meme

ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    """The test database, for a process the test starts."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def every_job_ends_with_each_meme_once(memes: int, seconds: float = 120) -> None:
    """Wait until no job or meme is left waiting, then check exactly ``memes``
    memes exist, each made once, each ready or failed with a reason."""
    wait_for(
        lambda: (
            not GenerationJob.objects.exclude(status__in=["done", "failed"]).exists()
            and not Meme.objects.filter(status="queued").exists()
        ),
        seconds,
        "every job to finish",
    )
    made = Meme.objects.all()
    assert made.count() == memes
    assert made.values("generation_id").distinct().count() == memes
    for meme in made:
        assert meme.status == "ready" or (meme.status == "failed" and meme.failure_reason)


# Workers that sweep every second with a 3-second deadline: lost work comes back fast.
FAST_SWEEP = {"GENERATION_JOB_DEADLINE_SECONDS": "3", "SWEEP_SECONDS": "1", "TOP_UP_SECONDS": "3600"}


@pytest.fixture
def start_worker(tmp_path: Path, media_in_tmp: Path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """start(broker, extra_env, *worker_options) runs a worker on both queues;
    every worker still running at the end is killed."""
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
        with (tmp_path / f"worker-{len(started)}.log").open("wb") as log:
            worker = subprocess.Popen(
                [sys.executable, "-m", "tests.fake_model_worker", "-Q", "model,default", "--pool", "solo",
                 "--loglevel", "INFO", "-n", f"worker{len(started)}@%h", "--schedule", str(tmp_path / "beat"),
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
