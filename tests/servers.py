"""Run a command beside a throwaway PostgreSQL cluster and Redis server.

    python -m tests.servers COMMAND...

Both listen on free loopback ports and live in a temporary folder that is
removed afterwards; the command sees DATABASE_URL, CELERY_BROKER_URL and
CACHE_URL pointing at them. Needs Debian's postgresql and redis-server.

Each server keeps its settings in its own files (the cluster's
postgresql.conf, a redis.conf), so a test can stop and start it again on the
same port: MEMESITE_TEST_PG_DATA and MEMESITE_TEST_REDIS_CONF name them, and
tests/integration/restart.py uses them.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
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


def pg_ctl(data: Path) -> list[str]:
    """pg_ctl for the cluster in ``data``, waiting for each start and stop."""
    return [
        *as_postgres_user(),
        postgres_bin("pg_ctl"),
        "-D",
        str(data),
        "-l",
        str(data.parent / "pg.log"),
        "-w",
    ]


@contextlib.contextmanager
def postgres(root: Path) -> Iterator[tuple[str, Path]]:
    """Yields the database URL and the cluster's data folder."""
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
    # In the cluster's own configuration rather than on pg_ctl's command line,
    # so a plain `pg_ctl start` after a stop comes back on the same port.
    with (data / "postgresql.conf").open("a") as conf:
        conf.write(
            f"port = {port}\nunix_socket_directories = '{root}'\nlisten_addresses = '127.0.0.1'\n"
            "fsync = off\nmax_connections = 200\n"
        )
    subprocess.run([*pg_ctl(data), "start"], check=True, stdout=subprocess.DEVNULL)
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
        yield f"postgres://postgres@127.0.0.1:{port}/memesite", data
    finally:
        subprocess.run([*pg_ctl(data), "-m", "fast", "stop"], stdout=subprocess.DEVNULL, check=False)


@contextlib.contextmanager
def redis(root: Path) -> Iterator[tuple[str, Path]]:
    """Yields the server's URL and its configuration file. No persistence: a
    restart loses every queued message, as a crashed production Redis can."""
    port = free_port()
    conf = root / "redis.conf"
    conf.write_text(
        f'port {port}\nbind 127.0.0.1\nsave ""\nappendonly no\ndir {root}\n'
        f"daemonize yes\npidfile {conf.with_suffix('.pid')}\nlogfile {conf.with_suffix('.log')}\n"
    )
    start_redis(conf)
    try:
        yield f"redis://127.0.0.1:{port}", conf
    finally:
        stop_redis(conf)


def redis_port(conf: Path) -> int:
    return int(next(line.split()[1] for line in conf.read_text().splitlines() if line.startswith("port ")))


def start_redis(conf: Path) -> None:
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit("redis-server not found: apt-get install redis-server")
    subprocess.run([server, str(conf)], check=True)  # returns at once; the server goes on in the background
    wait_for_port(redis_port(conf))
    deadline = time.monotonic() + 10  # stop_redis needs the pid, written after the port opens
    while not conf.with_suffix(".pid").exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def stop_redis(conf: Path) -> None:
    """Stop the server and wait until its port is free (a killed daemon's
    parent may never reap it, so its pid can outlive it)."""
    pid_file = conf.with_suffix(".pid")
    with contextlib.suppress(FileNotFoundError, ProcessLookupError, ValueError):
        os.kill(int(pid_file.read_text()), signal.SIGTERM)
    pid_file.unlink(missing_ok=True)
    wait_for_port(redis_port(conf), free=True)


def wait_for_port(port: int, seconds: float = 10, free: bool = False) -> None:
    """Wait until something listens on the port (or, with ``free``, nothing does)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        except OSError:
            if free:
                return
        else:
            if not free:
                return
        time.sleep(0.05)
    raise SystemExit(f"port {port} is still {'taken' if free else 'unanswered'} after {seconds} s")


def main(command: list[str]) -> int:
    if not command:
        raise SystemExit(__doc__)
    with tempfile.TemporaryDirectory(prefix="memesite-servers-") as tmp:
        root = Path(tmp)
        with postgres(root) as (database_url, pg_data), redis(root) as (redis_url, redis_conf):
            env = {
                **os.environ,
                "DATABASE_URL": database_url,
                "CELERY_BROKER_URL": f"{redis_url}/0",
                "CACHE_URL": f"{redis_url}/1",
                "MEMESITE_TEST_REDIS_URL": redis_url,
                "MEMESITE_TEST_PG_DATA": str(pg_data),
                "MEMESITE_TEST_REDIS_CONF": str(redis_conf),
            }
            return subprocess.run(command, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
