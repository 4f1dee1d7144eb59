"""CPU per feed page against the empty endpoint, in process, printed (not a test).

    python -m tests.servers .venv/bin/python bench/feed_cpu.py [--memes 10000] [--requests 1500]

Calls the site's WSGI handler directly (no HTTP server, no load generator) on a
throwaway PostgreSQL: one reader with a token follows `next` for 25 pages of 20
before starting a new feed session, as bench/feed.py's clients do. For each
endpoint, and for first pages of a new feed session (--first-pages a turn,
the hourly upkeep run after each turn), it reports wall time, this process's CPU time (Python) and the CPU
time of the PostgreSQL backend serving its connection (read from /proc, so
PostgreSQL must run on this machine), per request, in turns.

With --compare-unprepared each turn runs twice, alternating: with the site's
database options (psycopg 3 binding values on the server and preparing the
statements a connection runs often) and with values bound in the client and
nothing prepared, each on a connection of its own.

Under load on a shared machine, throughput follows CPU, not wall time: the
ratio printed is (empty CPU + HTTP) / (feed CPU + HTTP), where HTTP is the fixed
cost every request pays outside Django (--http-ms, measured as the gap between
bench/feed.py's empty-endpoint rate and this script's empty-endpoint CPU).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.update(
    DJANGO_SETTINGS_MODULE="bench.feed_server_settings",
    DEBUG="false",
    SECRET_KEY=secrets.token_urlsafe(60),
    ALLOWED_HOSTS="127.0.0.1",
    SECURE_SSL_REDIRECT="false",
    LOG_LEVEL="ERROR",
    THROTTLE_FEED_SESSIONS="1000000/minute",  # every reader here starts a new feed each 25 pages
    THROTTLE_FEED_MEMES="1000000000/minute",  # and reads far faster than a person
    DATABASE_CONN_MAX_AGE="86400",  # one connection throughout: its backend's CPU is what is read
)

from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from bench import feed  # noqa: E402  (sets Django up)
from feed.tasks import tidy_feed  # noqa: E402

ORIGIN = "http://127.0.0.1"
TOKEN = f"bench{1:035d}"  # bench/feed.py's first client
FIRST_PAGE = f"/api/feed/?page_size={feed.PAGE_SIZE}"  # a new feed session each time


def get(handler: WSGIHandler, path: str) -> bytes:
    route, _, query = path.partition("?")
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": route,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_AUTHORIZATION": f"Token {TOKEN}",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
    }
    statuses: list[str] = []
    body = b"".join(handler(environ, lambda status, headers, *rest: statuses.append(status)))  # type: ignore[arg-type]
    if not statuses[0].startswith("200"):
        raise SystemExit(f"{path}: {statuses[0]} {body[:200]!r}")
    return body


class Reader:
    """Follows `next`, starting a new session every PAGES_PER_SESSION pages."""

    def __init__(self, handler: WSGIHandler) -> None:
        self.handler, self.path, self.pages = handler, "", feed.PAGES_PER_SESSION

    def page(self) -> None:
        if self.pages == feed.PAGES_PER_SESSION:
            self.path, self.pages = f"/api/feed/?page_size={feed.PAGE_SIZE}", 0
        body = get(self.handler, self.path)
        self.path = json.loads(body)["next"].removeprefix(ORIGIN)
        self.pages += 1


def backend_cpu_seconds(pid: int) -> float:
    """User + system CPU of one PostgreSQL backend process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (backend,) = cursor.fetchone()
    return int(backend)


def per_request(call: Callable[[], Any], count: int, backend: int) -> dict[str, float]:
    wall, python, database = time.perf_counter(), time.process_time(), backend_cpu_seconds(backend)
    for _ in range(count):
        call()
    return {
        "wall_ms": (time.perf_counter() - wall) / count * 1e3,
        "python_ms": (time.process_time() - python) / count * 1e3,
        "postgresql_ms": (backend_cpu_seconds(backend) - database) / count * 1e3,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memes", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=1500, help="per endpoint and turn")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--first-pages", type=int, default=300, help="new feeds per turn")
    parser.add_argument("--http-ms", type=float, default=0.45, help="fixed cost per request over HTTP")
    parser.add_argument(
        "--compare-unprepared",
        action="store_true",
        help="each turn also without psycopg's prepared statements (values bound in the client)",
    )
    args = parser.parse_args()
    feed.require_postgres("bench/feed_cpu.py")  # no wrk: nothing here goes over HTTP
    call_command("migrate", verbosity=0)
    feed.create_people_and_templates()
    feed.load(1, args.memes, args.memes * 5)
    handler = WSGIHandler()
    reader = Reader(handler)
    for _ in range(300):  # warm: the token and the connection
        reader.page()
        get(handler, "/api/bench/empty/")
    print(
        f"{args.memes:,} memes, {args.requests} requests per endpoint and turn, {args.first_pages}"
        " first pages of a new feed (ms per request)"
    )
    site_options = dict(connection.settings_dict["OPTIONS"])
    variants = {"site": site_options}
    if args.compare_unprepared:
        variants = {"unprepared": {}, "prepared": site_options}
    for turn in range(1, args.turns + 1):
        for variant, options in variants.items():
            use_options(options)
            label = f"turn {turn}" + (f" {variant}" if len(variants) > 1 else "")
            measure_turn(handler, reader, args, label)


def use_options(options: dict[str, Any]) -> None:
    """The next query opens a new connection with these OPTIONS (psycopg's binding, preparing)."""
    if connection.settings_dict["OPTIONS"] != options:
        connection.close()
        connection.settings_dict["OPTIONS"] = options


def measure_turn(handler: WSGIHandler, reader: Reader, args: argparse.Namespace, label: str) -> None:
    backend = backend_pid()  # the upkeep between turns may have opened another connection
    empty = per_request(lambda: get(handler, "/api/bench/empty/"), args.requests, backend)
    page = per_request(reader.page, args.requests, backend)
    one = per_request(lambda: get(handler, "/api/bench/one-query/"), args.requests, backend)
    first = per_request(lambda: get(handler, FIRST_PAGE), args.first_pages, backend)
    tidy_feed()  # as the hourly upkeep would: the reader's memory stays within its bound
    cpu = {
        name: found["python_ms"] + found["postgresql_ms"]
        for name, found in (("empty", empty), ("feed", page))
    }
    ratio = (cpu["empty"] + args.http_ms) / (cpu["feed"] + args.http_ms)
    print(
        f"{label}: empty wall {empty['wall_ms']:.3f} python {empty['python_ms']:.3f} | "
        f"feed wall {page['wall_ms']:.3f} python {page['python_ms']:.3f} "
        f"postgresql {page['postgresql_ms']:.3f} | one-query wall {one['wall_ms']:.3f} "
        f"python {one['python_ms']:.3f} postgresql {one['postgresql_ms']:.3f} | "
        f"first page wall {first['wall_ms']:.3f} python {first['python_ms']:.3f} "
        f"postgresql {first['postgresql_ms']:.3f} | "
        f"CPU ratio with HTTP {ratio:.2f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
