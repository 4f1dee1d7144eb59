"""How PostgreSQL best skips the memes a heavy reader has seen, printed (not a test).

    python -m tests.servers .venv/bin/python bench/feed_unseen_plans.py [--memes 100000]

Loads bench/feed.py's data, lets bench/feed_cpu.py's reader follow `next` for
--pages pages (sessions of 25), then open --first-pages new feeds, each
served the best-ranked memes it has not seen, and runs the upkeep, which
keeps its newest 10,000. With --pages 0 --first-pages 500 the 10,000 it
remembers are the best-ranked ones, which a new visit must read past: the
worst case. It then runs the first extension's candidates
(feed.ranking.sessions.session_candidates, unseen) in three spellings, alternating,
and prints the PostgreSQL backend's CPU per statement and one EXPLAIN ANALYZE
of each:

* not-in: ``NOT IN`` the reader's seen memes, as the feed does (a hashed
  subplan per part: read twice in hot and top);
* not-exists: ``NOT EXISTS`` (an anti-join, as the ORM's ``~Exists`` spells it);
* shared: the feed's statement with the seen memes read once, into a
  ``MATERIALIZED`` CTE both parts hash (raw SQL: the ORM has no CTE).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from django.db import connection
from django.db.models import Exists, OuterRef

from bench import feed_cpu  # sets the environment up, then Django
from feed.models import MemeQuerySet, SeenMeme
from feed.ranking import compiled, sessions
from feed.tasks import tidy_feed

feed = importlib.import_module("bench.feed")  # imported by bench.feed_cpu, after its environment

Spelling = tuple[str, list[Any]]


def not_exists(memes: MemeQuerySet, reader: int) -> MemeQuerySet:
    return memes.filter(~Exists(SeenMeme.objects.filter(user_id=reader, meme_id=OuterRef("pk"))))


def candidates(sort: str, reader: int, unseen_by: Callable[..., MemeQuerySet] | None = None) -> Spelling:
    """The first extension's candidates for a new session, as SQL and parameters."""
    original = sessions.unseen_by
    if unseen_by is not None:
        sessions.unseen_by = unseen_by
    compiled.statement.cache_clear()
    try:
        select, values = sessions.candidates_statement(sessions.start_session(sort, None), reader, True)  # type: ignore[arg-type]
    finally:
        sessions.unseen_by = original
        compiled.statement.cache_clear()
    return select.sql, select.bind(values)


SEEN = 'SELECT U0."meme_id" AS "meme_id" FROM "feed_seenmeme" U0 WHERE U0."user_id" = %s'


def shared(spelling: Spelling, reader: int) -> Spelling:
    """The same statement with every read of the seen memes taken from one CTE."""
    sql, params = spelling
    pieces = sql.split(SEEN)
    kept: list[Any] = []
    taken = 0
    for number, piece in enumerate(pieces):
        count = piece.count("%s")
        kept += params[taken : taken + count]
        taken += count + (1 if number < len(pieces) - 1 else 0)  # the reader's id of a replaced read
    cte = "WITH seen AS MATERIALIZED (SELECT meme_id FROM feed_seenmeme WHERE user_id = %s) "
    return cte + "SELECT meme_id FROM seen".join(pieces), [reader, *kept]


def backend_ms(spelling: Spelling, runs: int, backend: int) -> float:
    before = feed_cpu.backend_cpu_seconds(backend)
    with connection.cursor() as cursor:
        for _ in range(runs):
            cursor.execute(*spelling)
            cursor.fetchall()
    return (feed_cpu.backend_cpu_seconds(backend) - before) / runs * 1e3


def fetch(spelling: Spelling) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(*spelling)
        return sorted(cursor.fetchall())


def explain(spelling: Spelling) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE) " + spelling[0], spelling[1])
        return [row[0] for row in cursor.fetchall()]


def summary(plan: list[str]) -> str:
    """Execution time and where the rows read past went."""
    removed = sum(int(found) for found in re.findall(r"Rows Removed by Filter: (\d+)", "\n".join(plan)))
    loops = re.findall(r"feed_seenmeme.*loops=(\d+)", "\n".join(plan))
    anti = "anti-join" if any("Anti Join" in line for line in plan) else "hashed subplan"
    return f"{plan[-1].strip()}, {anti}, rows removed by filter {removed}, seen-meme reads {loops}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memes", type=int, default=100_000)
    parser.add_argument("--pages", type=int, default=600, help="pages of 20 the reader follows first")
    parser.add_argument("--first-pages", type=int, default=150, help="then new feeds it opens")
    parser.add_argument("--vacuum", action="store_true", help="VACUUM ANALYZE the seen memes first")
    parser.add_argument("--runs", type=int, default=100, help="statements per spelling and turn")
    parser.add_argument("--turns", type=int, default=3)
    args = parser.parse_args()
    feed.require_postgres("bench/feed_unseen_plans.py")
    call_command("migrate", verbosity=0)
    feed.create_people_and_templates()
    feed.load(1, args.memes, args.memes * 5)
    handler = WSGIHandler()
    reader = feed_cpu.Reader(handler)
    for _ in range(args.pages):  # 600: 12,000 memes served, the newest 10,000 kept by the upkeep
        reader.page()
    tidy_feed()
    for _ in range(args.first_pages):  # the best-ranked unseen memes get seen
        feed_cpu.get(handler, feed_cpu.FIRST_PAGE)
    tidy_feed()
    if args.vacuum:  # as autovacuum would, given time: index-only reads, estimates that hold
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE feed_seenmeme")
    user = SeenMeme.objects.values_list("user_id", flat=True).first()
    assert user is not None
    seen = SeenMeme.objects.filter(user_id=user).count()
    print(f"{args.memes:,} memes, a reader who has seen {seen:,}; PostgreSQL CPU per statement (ms)")
    backend = feed_cpu.backend_pid()
    for sort in ("hot", "top", "new"):
        spellings = {"not-in": candidates(sort, user), "not-exists": candidates(sort, user, not_exists)}
        spellings["shared"] = shared(spellings["not-in"], user)
        rows = {name: fetch(spelling) for name, spelling in spellings.items()}
        same = all(found == rows["not-in"] for found in rows.values())
        for turn in range(1, args.turns + 1):
            names = list(spellings) if turn % 2 else list(spellings)[::-1]
            figures = {name: backend_ms(spellings[name], args.runs, backend) for name in names}
            print(
                f"{sort} turn {turn}: " + " | ".join(f"{name} {figures[name]:.2f}" for name in spellings),
                flush=True,
            )
        for name, spelling in spellings.items():
            print(f"  {sort} {name}: {summary(explain(spelling))}")
        print(f"  {sort}: the three give the same rows: {same}", flush=True)


if __name__ == "__main__":
    main()
