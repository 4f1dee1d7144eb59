"""How long a reader's "make a meme" waits while twenty accounts flood the caption worker,
with the worker taking jobs in turn (the product: generation.models.GenerationJobQuerySet.in_turn)
and in the order they were queued (as before), beside the same request on an idle worker.

    .venv/bin/python bench/fair_generation.py [--flooders 20] [--each 10] [--skip-queued-order]

A throwaway SQLite site with the demo pack and the shipped caption model, one worker in this
process (write captions for one job, render its memes, repeat), as `make run`'s worker does. The
queue when alice asks: two stock batches of 64 memes (the worker has just taken the first),
then each flooder's requests (4 memes each), then hers. Prints, for each order, the seconds
until her memes are ready, the jobs and memes the worker made until then, and the goal: at
most 3 × the idle time + 30 s.
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import throwaway_site  # noqa: E402

WORK = throwaway_site.start(LOG_LEVEL="ERROR", RENDER_VARIANTS="true")

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402

from generation import jobs  # noqa: E402
from generation.models import GenerationJob, Template  # noqa: E402
from generation.services import MEMES_PER_REQUEST  # noqa: E402

Runner = Callable[[], list[int]]  # one worker turn: the memes it left to render


def in_turn() -> list[int]:
    return jobs.write_captions_in_turn(1)


def in_queued_order() -> list[int]:
    oldest = GenerationJob.objects.filter(status="queued").order_by("queued_at", "pk").first()
    return jobs.write_captions([oldest.pk]) if oldest is not None else []


def request(user: User, template: Template) -> GenerationJob:
    return GenerationJob.objects.create(
        template=template, count=MEMES_PER_REQUEST, reason=GenerationJob.Reason.REQUEST, requested_by=user
    )


def serve_until_done(
    job_id: uuid.UUID, turn: Runner, in_hand: uuid.UUID | None = None
) -> tuple[float, int, int]:
    """Seconds until the job is done, and the jobs and memes the worker finished in that time
    (the job itself included), the worker having just taken ``in_hand`` when it was asked for."""
    started, finished_jobs, memes = time.monotonic(), 0, 0
    if in_hand is not None:
        memes += jobs.render_memes(jobs.write_captions([in_hand]))
        finished_jobs += 1
    while GenerationJob.objects.filter(pk=job_id).exclude(status__in=["done", "failed"]).exists():
        waiting = turn()
        memes += jobs.render_memes(waiting)
        finished_jobs += 1
    return time.monotonic() - started, finished_jobs, memes


def flood(flooders: int, each: int, templates: Sequence[Template]) -> uuid.UUID:
    """Queue the flood; returns the stock batch the worker has just taken when alice asks."""
    GenerationJob.objects.all().delete()
    stock = [
        GenerationJob.objects.create(template=template, count=64, reason=GenerationJob.Reason.STOCK)
        for template in templates[:2]
    ]
    for number in range(flooders):
        flooder, _ = User.objects.get_or_create(username=f"flooder{number}")
        for index in range(each):
            request(flooder, templates[(number + index) % len(templates)])
    return stock[0].pk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flooders", type=int, default=20)
    parser.add_argument("--each", type=int, default=10)
    parser.add_argument("--skip-queued-order", action="store_true", help="the slow, old order: minutes")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0)
    GenerationJob.objects.all().delete()
    templates = list(Template.objects.active().order_by("slug"))
    alice = User.objects.get(username="alice")
    jobs.caption_model()  # loaded once, before any clock starts
    candidates = f"{settings.CAPTION_CANDIDATES}/{settings.CAPTION_KEYWORD_CANDIDATES}"
    print(f"model {jobs.caption_model().version}, {candidates} candidates")

    serve_until_done(request(alice, templates[4]).pk, in_turn)  # first use: lazy set-up, uncounted
    idle, _, _ = serve_until_done(request(alice, templates[3]).pk, in_turn)
    goal = 3 * idle + 30
    print(f"alice's request on an idle worker: {idle:.1f} s (goal under a flood: ≤ {goal:.1f} s)")
    orders = [("in turn (now)", in_turn)]
    if not args.skip_queued_order:
        orders.append(("in the order queued (before)", in_queued_order))
    for label, turn in orders:
        in_hand = flood(args.flooders, args.each, templates)
        hers = request(alice, templates[3])
        seconds, done, memes = serve_until_done(hers.pk, turn, in_hand)
        print(
            f"{label}: {seconds:.1f} s ({seconds / idle:.1f} × idle), {done} jobs and {memes} memes made "
            f"until hers were ready, hers included ({args.flooders} accounts × {args.each} requests "
            f"behind 2 stock batches of 64, one in hand); "
            f"{'within' if seconds <= goal else 'over'} the goal"
        )


if __name__ == "__main__":
    main()
