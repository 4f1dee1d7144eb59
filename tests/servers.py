"""Run a command beside a throwaway PostgreSQL cluster and Redis server.

    python -m tests.servers COMMAND...

Both listen on free loopback ports and live in a temporary folder that is
removed afterwards; the command sees DATABASE_URL, CELERY_BROKER_URL and
CACHE_URL pointing at them. Needs Debian's postgresql and redis-server.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def postgres_bin(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if found:
        return str(found[-1])
    on_path = shutil.which(name)
    if on_path:
        return on_path
    raise SystemExit(f"{name} not found: install PostgreSQL (apt-get install postgresql)")


def as_postgres_user() -> list[str]:
    """initdb refuses to run as root; Debian's package creates a postgres user."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise SystemExit("running as root needs the postgres user: apt-get install postgresql") from None
    return ["runuser", "-u", "postgres", "--"]


@contextlib.contextmanager
def postgres(root: Path) -> Iterator[str]:
    data, port = root / "pg", free_port()
    data.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(data, "postgres")
    run_as = as_postgres_user()
    subprocess.run(
        [*run_as, postgres_bin("initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    pg_ctl = [*run_as, postgres_bin("pg_ctl"), "-D", str(data), "-l", str(root / "pg.log"), "-w"]
    subprocess.run([*pg_ctl, "-o", options, "start"], check=True, stdout=subprocess.DEVNULL)
    try:
        subprocess.run(
            [
                *run_as,
                postgres_bin("createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                "-U",
                "postgres",
                "memesite",
            ],
            check=True,
        )
        yield f"postgres://postgres@127.0.0.1:{port}/memesite"
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "stop"], stdout=subprocess.DEVNULL, check=False)


@contextlib.contextmanager
def redis(root: Path) -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit("redis-server not found: apt-get install redis-server")
    port = free_port()
    process = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(root),
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port)
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def wait_for_port(port: int, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return
        time.sleep(0.05)
    raise SystemExit(f"nothing listens on port {port} after {seconds} s")


def main(command: list[str]) -> int:
    if not command:
        raise SystemExit(__doc__)
    with tempfile.TemporaryDirectory(prefix="memesite-servers-") as tmp:
        root = Path(tmp)
        with postgres(root) as database_url, redis(root) as redis_url:
            env = {
                **os.environ,
                "DATABASE_URL": database_url,
                "CELERY_BROKER_URL": f"{redis_url}/0",
                "CACHE_URL": f"{redis_url}/1",
                "MEMESITE_TEST_REDIS_URL": redis_url,
            }
            return subprocess.run(command, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
