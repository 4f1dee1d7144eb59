"""Feed benchmark on PostgreSQL, printed (not a test).

    python -m tests.servers .venv/bin/python bench/feed.py [--memes 1000000] [--reactions 5000000]

1. loads 10,000 memes and 50,000 reactions in bulk (server-side INSERT …
   SELECT), serves them with gunicorn (--workers sync workers, 2 by default) and measures with wrk
   (16 connections, one reader each, following `next` for 25 pages of 20 before
   starting a new feed session) the feed, an empty DRF endpoint, one that
   first checks the token as the feed does, and a page of twenty memes that
   PostgreSQL builds as JSON in one query (the least a page read from the
   database can cost: bench/feed_server_urls.py), in three turns of 15 s each,
   reporting medians (the machine is shared);
2. grows the data to --memes and --reactions, measures again;
3. prints p50/p95 latency and requests/s, the feed/one-query-page ratio, p95 at 1M over
   p95 at 10k, and EXPLAIN ANALYZE of the queries one feed page runs.

Needs DATABASE_URL pointing at a throwaway PostgreSQL (tests.servers starts
one) and wrk (apt-get install wrk). Traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memesite.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from feed.models import Template  # noqa: E402
from feed.ranking.pages import next_page  # noqa: E402
from feed.ranking.scores import EPOCH, HOT_HOURS_PER_RATING, PRIOR_VOTES  # noqa: E402
from feed.ranking.sessions import start_session  # noqa: E402
from generation.layout import boxes_to_json, default_boxes  # noqa: E402
from tests.servers import free_port, wait_for_port  # noqa: E402

CLIENTS = 16  # wrk connections, each one reader with its own token
READERS = 20_000  # users who cast the reactions
TEMPLATES = 20
PAGE_SIZE = 20
PAGES_PER_SESSION = 25  # then the reader starts a fresh feed session
MEAN_VOTES = 5.7  # exponential votes per ready meme (floored: about 5 on average)
MAX_VOTES = 60

WRK_SCRIPT = r"""
local counter = 0
local threads = {}

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  first = args[1]
  per_session = tonumber(args[2])
  token = string.format("bench%035d", id)
  path = first
  pages = 0
  failures = 0
end

function request()
  return wrk.format("GET", path, {["Authorization"] = "Token " .. token})
end

function response(status, headers, body)
  if status ~= 200 then
    failures = failures + 1
    path = first
    pages = 0
    return
  end
  pages = pages + 1
  local following = body:match('"next":%s*"([^"]+)"')
  if following == nil or pages >= per_session then
    path = first
    pages = 0
  else
    path = (following:gsub("^https?://[^/]+", ""))
  end
end

function done(summary, latency, requests)
  local failed = 0
  for _, thread in ipairs(threads) do failed = failed + thread:get("failures") end
  io.write(string.format(
    'RESULT {"requests": %d, "seconds": %.3f, "p50_ms": %.3f, "p95_ms": %.3f, "p99_ms": %.3f, ' ..
    '"socket_errors": %d, "failed": %d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000,
    latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, failed))
end
"""


def say(text: str) -> None:
    print(text, flush=True)


# --- data -----------------------------------------------------------------------


def require_postgres(script: str = "bench/feed.py") -> None:
    if connection.vendor != "postgresql":
        raise SystemExit(f"{script} needs PostgreSQL: python -m tests.servers .venv/bin/python {script}")


def require_wrk() -> None:
    if shutil.which("wrk") is None:
        raise SystemExit("bench/feed.py needs wrk: apt-get install wrk")


def create_people_and_templates() -> None:
    """Readers, the 16 clients' tokens and the templates, through the ORM (small)."""
    User.objects.bulk_create(
        [User(username=f"bench{n:05d}", password="!") for n in range(1, READERS + 1)], batch_size=5000
    )
    clients = User.objects.order_by("pk")[:CLIENTS]
    Token.objects.bulk_create([Token(key=f"bench{n:035d}", user=user) for n, user in enumerate(clients, 1)])
    boxes = boxes_to_json(default_boxes(2))
    Template.objects.bulk_create(
        [
            Template(name=f"Bench {n}", slug=f"bench-{n}", image="templates/bench.jpg", boxes=boxes)
            for n in range(1, TEMPLATES + 1)
        ]
    )


def load(first_id: int, last_id: int, reactions: int) -> dict[str, float]:
    """Memes first_id..last_id with ``reactions`` votes among them, counters and
    scores consistent with the votes, in three server-side statements."""
    timings: dict[str, float] = {}
    hot_scale = 3600 * HOT_HOURS_PER_RATING
    with connection.cursor() as cursor:
        # Bulk load: foreign keys are known to hold, their triggers would only queue 5M checks.
        cursor.execute("SET session_replication_role = replica")
        started = time.monotonic()
        cursor.execute(
            """
            CREATE UNLOGGED TABLE bench_votes AS
            SELECT m.n AS meme_id, readers.ids[1 + ((m.n * 7919 + g * 104729) %% readers.count)] AS user_id,
                   CASE WHEN random() < m.quality THEN 1 ELSE -1 END AS value
            FROM (SELECT n, 0.25 + 0.65 * ((n * 2654435761) %% 1000) / 1000.0 AS quality,
                         least(%s, floor(-ln(1 - random()) * %s))::int AS k
                  FROM generate_series(%s::bigint, %s::bigint) n WHERE n %% 100 > 1) m,
                 generate_series(1, m.k) g,
                 (SELECT array_agg(id ORDER BY id) AS ids, count(*) AS count FROM auth_user) readers
            LIMIT %s
            """,
            [MAX_VOTES, MEAN_VOTES, first_id, last_id, reactions],
        )
        cursor.execute("CREATE INDEX ON bench_votes (meme_id)")
        timings["votes generated"] = time.monotonic() - started
        started = time.monotonic()
        cursor.execute(
            """
            INSERT INTO feed_meme (id, template_id, texts, keywords, image, status, failure_reason,
                generation_id, model_version, sampling, created_at, ready_at, likes, dislikes,
                favourites, reports, prior, rating, hot, width, height)
            SELECT g.n, templates.ids[1 + g.n %% templates.count],
                jsonb_build_array('bench meme ' || g.n, 'bottom text'), '[]'::jsonb,
                'memes/bench/' || (g.n %% 50) || '.webp',
                CASE g.n %% 100 WHEN 0 THEN 'hidden' WHEN 1 THEN 'failed' ELSE 'ready' END, '',
                md5('bench' || g.n)::uuid, 'bench', '{}'::jsonb, g.at, g.at,
                coalesce(v.likes, 0), coalesce(v.dislikes, 0), 0, 0, 0.5,
                (coalesce(v.likes, 0) + 0.5 * %s) / (coalesce(v.likes, 0) + coalesce(v.dislikes, 0) + %s),
                extract(epoch FROM g.at - %s) / %s
                  + (coalesce(v.likes, 0) + 0.5 * %s) / (coalesce(v.likes, 0) + coalesce(v.dislikes, 0) + %s),
                800, 600 + (g.n %% 5) * 50
            FROM (SELECT n, now() - random() * interval '30 days' AS at
                  FROM generate_series(%s::bigint, %s::bigint) n) g
            LEFT JOIN (SELECT meme_id, count(*) FILTER (WHERE value = 1) AS likes,
                              count(*) FILTER (WHERE value = -1) AS dislikes
                       FROM bench_votes GROUP BY meme_id) v ON v.meme_id = g.n,
                 (SELECT array_agg(id ORDER BY id) AS ids, count(*) AS count FROM feed_template) templates
            """,
            [PRIOR_VOTES, PRIOR_VOTES, EPOCH, hot_scale, PRIOR_VOTES, PRIOR_VOTES, first_id, last_id],
        )
        timings["memes inserted"] = time.monotonic() - started
        started = time.monotonic()
        cursor.execute(
            "INSERT INTO feed_reaction (user_id, meme_id, value, created_at, updated_at) "
            "SELECT user_id, meme_id, value, now(), now() FROM bench_votes"
        )
        timings["reactions inserted"] = time.monotonic() - started
        cursor.execute("DROP TABLE bench_votes")
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('feed_meme', 'id'), (SELECT max(id) FROM feed_meme))"
        )
        cursor.execute("SET session_replication_role = DEFAULT")
        started = time.monotonic()
        cursor.execute("VACUUM ANALYZE feed_meme")
        cursor.execute("VACUUM ANALYZE feed_reaction")
        timings["vacuum analyze"] = time.monotonic() - started
    return timings


def counts() -> tuple[int, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT (SELECT count(*) FROM feed_meme), (SELECT count(*) FROM feed_reaction)")
        memes, reactions = cursor.fetchone()
    return int(memes), int(reactions)


# --- server and load ----------------------------------------------------------------


@contextlib.contextmanager
def gunicorn(work: Path, workers: int) -> Iterator[str]:
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.feed_server_settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "STATIC_ROOT": str(work / "static"),
        "LOG_LEVEL": "WARNING",
        "THROTTLE_FEED_SESSIONS": "1000000/minute",  # each client starts a new feed every 25 pages
        "THROTTLE_FEED_MEMES": "1000000000/minute",  # each client reads far faster than a person
    }
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "memesite.wsgi:application",
            f"--workers={workers}",
            "--worker-class=sync",
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
            f"--chdir={ROOT}",
        ],
        env=env,
    )
    try:
        wait_for_port(port, seconds=30)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def wrk(
    base: str, path: str, seconds: int, script: Path, per_session: int = PAGES_PER_SESSION
) -> dict[str, Any]:
    command = [
        "wrk",
        f"--threads={CLIENTS}",
        f"--connections={CLIENTS}",
        f"--duration={seconds}s",
        "--timeout=5s",
        f"--script={script}",
        base,
        "--",
        path,
        str(per_session),
    ]
    output = subprocess.run(command, capture_output=True, text=True, check=True, timeout=seconds + 60).stdout
    line = next(line for line in output.splitlines() if line.startswith("RESULT "))
    result: dict[str, Any] = json.loads(line.removeprefix("RESULT "))
    result["per_second"] = result["requests"] / result["seconds"]
    return result


def measure(base: str, script: Path, seconds: int, rounds: int) -> dict[str, dict[str, Any]]:
    """Empty endpoint and feed in turns, ``rounds`` times, medians reported: this
    machine is shared, and turns spread whatever else runs over both."""
    feed = f"/api/feed/?page_size={PAGE_SIZE}"
    wrk(base, feed, 5, script)  # warm: connections and caches
    runs: dict[str, list[dict[str, Any]]] = {"empty": [], "signed-in": [], "one-query": [], "feed": []}
    for _ in range(rounds):
        runs["empty"].append(wrk(base, "/api/bench/empty/", seconds, script, 1))
        runs["signed-in"].append(wrk(base, "/api/bench/signed-in/", seconds, script, 1))
        runs["one-query"].append(wrk(base, "/api/bench/one-query/", seconds, script, 1))
        runs["feed"].append(wrk(base, feed, seconds, script))
    results = {name: medians(found) for name, found in runs.items()}
    for name, result in results.items():
        say(
            f"  {name:9}: {result['per_second']:7.0f} req/s  p50 {result['p50_ms']:6.1f} ms  "
            f"p95 {result['p95_ms']:6.1f} ms  p99 {result['p99_ms']:6.1f} ms  "
            f"(medians of {rounds} × {seconds} s; {result['failed']} non-200, "
            f"{result['socket_errors']} socket errors; load average {os.getloadavg()[0]:.1f})"
        )
    return results


def medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ("per_second", "p50_ms", "p95_ms", "p99_ms")
    found: dict[str, Any] = {key: statistics.median(run[key] for run in runs) for key in keys}
    found["failed"] = sum(run["failed"] for run in runs)
    found["socket_errors"] = sum(run["socket_errors"] for run in runs)
    found["runs"] = runs
    return found


# --- plans -------------------------------------------------------------------------


def explain_feed_page() -> dict[str, str]:
    """EXPLAIN ANALYZE of the statements a first and a second page run, as sent."""
    reader = User.objects.get(username="bench00001")
    plans: dict[str, str] = {}
    for label, template_id in (("all templates", None), ("one template", Template.objects.first().pk)):  # type: ignore[union-attr]
        state = start_session("hot", template_id)
        with CaptureQueriesContext(connection) as first:
            page = next_page(reader, state, PAGE_SIZE)
        with CaptureQueriesContext(connection) as second:
            next_page(reader, page.state, PAGE_SIZE)
        reads = [query["sql"] for query in second.captured_queries if "feed_feedposition" in query["sql"]]
        statements = [("extend the session: its candidates", first.captured_queries[0]["sql"])]
        statements.append(("read a page", reads[-1]))
        remember = [
            query["sql"] for query in second.captured_queries if 'INTO "feed_seenmeme"' in query["sql"]
        ]
        statements.append(("remember what it served", remember[-1]))
        for name, sql in statements:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + sql)
                plans[f"{label}: {name}"] = "\n".join(row[0] for row in cursor.fetchall())
                transaction.set_rollback(True)
    return plans


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memes", type=int, default=1_000_000)
    parser.add_argument("--reactions", type=int, default=5_000_000)
    parser.add_argument("--small-memes", type=int, default=10_000)
    parser.add_argument("--seconds", type=int, default=15, help="each measurement")
    parser.add_argument("--rounds", type=int, default=3, help="turns of each endpoint per size")
    parser.add_argument(
        "--workers", type=int, default=2, help="gunicorn sync workers (its docs suggest 2 per core + 1)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    require_postgres()
    require_wrk()
    work = Path(tempfile.mkdtemp(prefix="memesite-bench-feed-"))
    script = work / "feed.lua"
    script.write_text(WRK_SCRIPT)
    call_command("migrate", verbosity=0)
    create_people_and_templates()
    small_reactions = args.reactions * args.small_memes // args.memes

    say(f"loading {args.small_memes:,} memes and {small_reactions:,} reactions …")
    started = time.monotonic()
    load(1, args.small_memes, small_reactions)
    say(f"  {counts()[0]:,} memes, {counts()[1]:,} reactions in {time.monotonic() - started:.0f} s")
    with gunicorn(work, args.workers) as base:
        small = measure(base, script, args.seconds, args.rounds)

    say(f"loading up to {args.memes:,} memes and {args.reactions:,} reactions …")
    started = time.monotonic()
    timings = load(args.small_memes + 1, args.memes, args.reactions - counts()[1])
    memes, reactions = counts()
    load_seconds = time.monotonic() - started
    say(f"  {memes:,} memes, {reactions:,} reactions in {load_seconds:.0f} s ({json.dumps(timings)})")
    with gunicorn(work, args.workers) as base:
        large = measure(base, script, args.seconds, args.rounds)

    plans = explain_feed_page()
    ratio = large["feed"]["per_second"] / large["empty"]["per_second"]
    growth = large["feed"]["p95_ms"] / small["feed"]["p95_ms"]
    say("\nsummary")
    for label, sizes in ((f"{args.small_memes:,}", small), (f"{memes:,}", large)):
        of_page = sizes["feed"]["per_second"] / sizes["one-query"]["per_second"]
        say(f"  feed/one-query page requests per second at {label} memes: {of_page:.2f} (goal ≥ 0.6)")
    one_query = large["feed"]["per_second"] / large["one-query"]["per_second"]
    say(f"  feed/empty requests per second at {memes:,} memes: {ratio:.2f}")
    signed_in = large["feed"]["per_second"] / large["signed-in"]["per_second"]
    say(f"  feed/signed-in empty requests per second at {memes:,} memes: {signed_in:.2f}")
    floor = large["one-query"]["per_second"] / large["empty"]["per_second"]
    say(f"  one-query page/empty requests per second at {memes:,} memes: {floor:.2f} (a page's ceiling)")
    say(f"  feed p95 at {memes:,} / at {args.small_memes:,} memes: {growth:.2f}× (goal ≤ 1.5×)")
    say(f"  feed p95 at {memes:,} memes: {large['feed']['p95_ms']:.1f} ms (goal ≤ 50 ms)")
    for name, plan in plans.items():
        say(f"\nEXPLAIN {name}\n{plan}")
    if args.json:
        figures = {
            "memes": memes,
            "reactions": reactions,
            "load_seconds": load_seconds,
            "load_timings": timings,
            "small": small,
            "large": large,
            "ratio": ratio,
            "one_query_share": one_query,
            "signed_in_ratio": signed_in,
            "one_query_ratio": floor,
            "p95_growth": growth,
            "plans": plans,
        }
        args.json.write_text(json.dumps(figures, indent=2))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
