"""What the integration tests share: the test database's URL for processes
they start, waiting for a condition, a real Celery worker (the product's code
with the test caption model) that a test can start, kill and restart, and the
real site served by gunicorn with production settings."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from django.db import connection

from feed.models import Meme
from generation.models import GenerationJob
from tests.conftest import make_template
from tests.servers import free_port, wait_for_port

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


JOBS, MEMES_PER_JOB = 10, 5  # the 50 memes every fault test makes


def queue_jobs(broker: str) -> None:
    """JOBS jobs of MEMES_PER_JOB memes for one template, rows first, each sent
    to the model queue on ``broker`` as the site sends them."""
    template = make_template()
    sender = Celery(broker=broker)
    for _ in range(JOBS):
        job = GenerationJob.objects.create(template=template, count=MEMES_PER_JOB)
        sender.send_task("generation.tasks.write_captions", args=[[str(job.pk)]], queue="model")
    sender.close()


@pytest.fixture
def redis_broker() -> str:
    url = os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis://"):
        pytest.skip("needs the PostgreSQL and Redis servers that `python -m tests.servers` starts")
    return url


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


# --- the site, served as in production -----------------------------------------

SITE_WORKERS = 2  # gunicorn sync workers, each with its own persistent database connection


@dataclass(frozen=True)
class Answer:
    started: float  # time.monotonic()
    finished: float
    status: int  # 0: no HTTP answer at all (refused, reset, timed out)
    body: str
    retry_after: str | None


@dataclass(frozen=True)
class Site:
    host: str
    port: int

    def ask(self, method: str, path: str, token: str, data: Any = None) -> Answer:
        started = time.monotonic()
        client = http.client.HTTPConnection(self.host, self.port, timeout=15)
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        try:
            client.request(method, path, body=None if data is None else json.dumps(data), headers=headers)
            response = client.getresponse()
            body = response.read().decode(errors="replace")
            return Answer(started, time.monotonic(), response.status, body, response.getheader("Retry-After"))
        except (OSError, http.client.HTTPException) as error:
            return Answer(started, time.monotonic(), 0, repr(error), None)
        finally:
            client.close()


@pytest.fixture
def production_env(transactional_db: None, tmp_path: Path, media_in_tmp: Path) -> dict[str, str]:
    """The environment the site runs in as in production (bin/serve turns DEBUG
    off), on the test database and Redis."""
    return {
        **os.environ,
        "MEMESITE_PYTHON": sys.executable,
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "STATIC_ROOT": str(tmp_path / "static"),
        "MEDIA_ROOT": str(media_in_tmp),
        "DATABASE_URL": database_url(),
        # Feed top-ups go to a queue of their own: no worker here, and the
        # job queues of the other tests stay as those tests left them.
        "CELERY_BROKER_URL": f"{os.environ['MEMESITE_TEST_REDIS_URL']}/2",
        # Load, not limits: the limits have their own test on this site.
        "THROTTLE_REACTIONS": "1000000/minute",
        "THROTTLE_FEED_SESSIONS": "1000000/minute",
        "THROTTLE_FEED_MEMES": "1000000000/minute",
        "LOG_LEVEL": "WARNING",
    }


@pytest.fixture
def start_site(
    transactional_db: None, tmp_path: Path, production_env: dict[str, str]
) -> Iterator[Callable[..., Site]]:
    """start(extra_env) runs the site as production does (`bin/serve web`:
    gunicorn, DEBUG off) on the test database; stopped before the test database goes."""
    if connection.vendor != "postgresql":
        pytest.skip("needs the PostgreSQL server that `python -m tests.servers` starts")
    servers: list[subprocess.Popen[bytes]] = []

    def start(extra: dict[str, str] | None = None) -> Site:
        port = free_port()
        env = {**production_env, "PORT": str(port), "WEB_WORKERS": str(SITE_WORKERS), **(extra or {})}
        with (tmp_path / f"gunicorn-{len(servers)}.log").open("wb") as log:
            server = subprocess.Popen(
                [ROOT / "bin" / "serve", "web"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        servers.append(server)
        wait_for_port(port, seconds=30)
        return Site("127.0.0.1", port)

    yield start
    for server in servers:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
