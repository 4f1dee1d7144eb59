"""Generation pipeline figures, printed (not a test):

1. end-to-end memes/s for one worker: captions (one batched pass per job),
   render, store, rows marked ready — the work a solo worker does per job;
2. time from a new reader's first feed request to a full first page;
3. the largest number N of simulated readers, each scrolling one meme every
   2 s, for whom one worker keeps the ready, unseen stock above 10 while every
   page is served on time.

Runs on a throwaway SQLite database and media folder with the shipped caption
model and the demo pack:  python bench/pipeline.py [--seconds 30]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import throwaway_site  # noqa: E402

WORK = throwaway_site.start(CELERY_TASK_ALWAYS_EAGER="true", LOG_LEVEL="WARNING")

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from django.test import Client, override_settings  # noqa: E402

from feed.models import Meme, Template  # noqa: E402
from feed.ranking.pages import next_page  # noqa: E402
from feed.ranking.sessions import start_session  # noqa: E402
from generation import jobs  # noqa: E402
from generation.models import GenerationJob  # noqa: E402
from generation.services import reader_is_running_low  # noqa: E402

READ_EVERY = 2.0  # seconds per meme a simulated reader scrolls
STOCK_FLOOR = 10


def setup() -> None:
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("load_demo", verbosity=0)


def run_jobs(job_ids: list[uuid.UUID]) -> int:
    return jobs.render_memes(jobs.write_captions(job_ids))


def worker_throughput(
    batch: int, rounds: int, candidates: list[int], copies: list[bool]
) -> dict[tuple[int, bool], tuple[float, ...]]:
    """Per (candidates, lighter copies) setting: memes/s end to end, and the caption and render shares apart.

    The settings take turns job by job, so a machine that slows down mid-run slows them alike."""
    templates = list(Template.objects.active())
    settings_ = [(count, copy) for count in candidates for copy in copies]
    seconds = {setting: [0.0, 0.0, 0] for setting in settings_}  # caption s, render s, memes
    for round_number in range(rounds):
        for count, copy in settings_:
            job = GenerationJob.objects.create(template=templates[round_number % len(templates)], count=batch)
            with override_settings(CAPTION_CANDIDATES=count, RENDER_VARIANTS=copy):
                started = time.perf_counter()
                waiting = jobs.write_captions([job.pk])
                written = time.perf_counter()
                made = jobs.render_memes(waiting)
            seconds[count, copy][0] += written - started
            seconds[count, copy][1] += time.perf_counter() - written
            seconds[count, copy][2] += made
    return {c: (m / (cs + rs), m / cs, m / rs) for c, (cs, rs, m) in seconds.items()}


def first_page_seconds() -> float:
    user = User.objects.create_user(f"newcomer{time.monotonic_ns()}", password="x-bench-password-1")
    client = Client()
    client.force_login(user)
    started = time.perf_counter()
    response = client.get("/api/feed/", {"page_size": 10})
    elapsed = time.perf_counter() - started
    assert response.status_code == 200 and len(response.json()["results"]) == 10, response.content[:300]
    return elapsed


def worker_loop(stop_at: float) -> None:
    """One worker: run whatever jobs are queued, as a solo Celery worker would."""
    connections.close_all()
    while time.time() < stop_at:
        queued = list(GenerationJob.objects.filter(status="queued").values_list("pk", flat=True)[:1])
        if queued:
            run_jobs(queued)
        else:
            time.sleep(0.05)


def readers_sustained(readers: int, seconds: float) -> tuple[bool, int, float]:
    """Simulate ``readers`` scrolling for ``seconds`` beside one worker process.
    Returns (sustained, lowest stock seen by any reader, p95 page lateness in s)."""
    users = [User.objects.get_or_create(username=f"sim{n}")[0] for n in range(readers)]
    stop_at = time.time() + seconds
    worker = multiprocessing.get_context("fork").Process(target=worker_loop, args=(stop_at,))
    connections.close_all()
    worker.start()
    lowest, lateness = [10**9], []
    lock = threading.Lock()

    def scroll(user: User, offset: float) -> None:
        state = start_session("hot", None)
        due = time.time() + offset
        while due < stop_at:
            time.sleep(max(0.0, due - time.time()))
            page = next_page(user, state, 1)
            state = page.state
            if page.running_low:
                reader_is_running_low(user, None)
            unseen = Meme.objects.visible().count() - state.position
            with lock:
                lateness.append(time.time() - due)
                lowest[0] = min(lowest[0], unseen)
            due += READ_EVERY
        connections.close_all()

    threads = [
        threading.Thread(target=scroll, args=(user, READ_EVERY * n / readers)) for n, user in enumerate(users)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    worker.join()
    p95 = statistics.quantiles(lateness, n=20)[-1] if len(lateness) > 1 else 0.0
    return lowest[0] >= STOCK_FLOOR and p95 < 1.0, lowest[0], p95


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--batch", type=int, default=settings.GENERATION_BATCH_SIZE, help="memes per job (the site's default)"
    )
    parser.add_argument("--rounds", type=int, default=6, help="jobs timed for throughput, per setting")
    parser.add_argument(
        "--candidates",
        default=f"{settings.CAPTION_CANDIDATES},1",
        help="caption candidates per meme to compare side by side (the first is the site's setting)",
    )
    parser.add_argument(
        "--copies",
        default="on,off",
        help="lighter WebP copies made as memes render (RENDER_VARIANTS), side by side",
    )
    parser.add_argument("--throughput-only", action="store_true", help="stop after the worker's memes/s")
    parser.add_argument("--seconds", type=float, default=30, help="length of each reader simulation")
    parser.add_argument("--readers", default="10,25,50,100,200", help="reader counts to try, ascending")
    args = parser.parse_args()

    setup()
    print(f"work folder: {WORK}")
    started = time.perf_counter()
    call_command("stock_demo_memes", "--per-template", "6", verbosity=0)
    print(f"demo stock: {Meme.objects.visible().count()} memes in {time.perf_counter() - started:.1f} s")

    candidates = [int(c) for c in args.candidates.split(",")]
    copies = [value == "on" for value in args.copies.split(",")]
    measured = worker_throughput(args.batch, args.rounds, candidates, copies)
    for (count, copy), (total, captions, renders) in measured.items():
        setting = f"{count} caption candidate(s) per meme, copies {'on' if copy else 'off'}"
        print(f"one worker, end to end, {setting}: {total:.1f} memes/s "
              f"(captions alone {captions:.1f}/s, render+store {renders:.1f}/s)")  # fmt: skip
    if args.throughput_only:
        return

    firsts = [first_page_seconds() for _ in range(5)]
    print(f"new reader, first full page of 10: median {statistics.median(firsts) * 1000:.0f} ms, "
          f"worst {max(firsts) * 1000:.0f} ms")  # fmt: skip

    best = 0
    for readers in (int(n) for n in args.readers.split(",")):
        sustained, lowest, p95 = readers_sustained(readers, args.seconds)
        verdict = "sustained" if sustained else "NOT sustained"
        print(f"{readers:4d} readers × 1 meme / {READ_EVERY:g} s for {args.seconds:g} s: lowest unseen stock "
              f"{lowest}, p95 page lateness {p95 * 1000:.0f} ms → {verdict}")  # fmt: skip
        if not sustained:
            break
        best = readers
    print(f"largest N one worker sustained: {best}")


if __name__ == "__main__":
    main()
