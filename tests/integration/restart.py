"""Restart the servers `python -m tests.servers` started, from inside a test.

Each comes back on the same port with the same settings. PostgreSQL keeps its
data; Redis keeps nothing (it runs without persistence), so every message it
held is gone, as after a crash of a production Redis without AOF."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from django.db import connections

from tests.servers import pg_ctl, start_redis, stop_redis


def server_file(name: str) -> Path:
    value = os.environ.get(name)
    if not value:
        pytest.skip(f"needs {name}: run under `python -m tests.servers`")
    return Path(value)


def restart_postgres(down_seconds: float = 0.0) -> float:
    """Stop PostgreSQL (fast: open sessions are cut), wait, start it again.
    Returns the monotonic time at which it accepts connections again."""
    data = server_file("MEMESITE_TEST_PG_DATA")
    subprocess.run([*pg_ctl(data), "-m", "fast", "stop"], check=True, stdout=subprocess.DEVNULL)
    time.sleep(down_seconds)
    subprocess.run([*pg_ctl(data), "start"], check=True, stdout=subprocess.DEVNULL)
    back = time.monotonic()
    connections.close_all()  # this process's own sessions died with the server
    return back


def restart_redis(down_seconds: float = 0.0) -> float:
    """Stop Redis, losing every queued message, wait, start it empty.
    Returns the monotonic time at which it accepts connections again."""
    conf = server_file("MEMESITE_TEST_REDIS_CONF")
    stop_redis(conf)
    time.sleep(down_seconds)
    start_redis(conf)
    return time.monotonic()
