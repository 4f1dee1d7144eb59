"""What a hostile visitor can make the site do under the shipped limits, printed
(not a test; the limits' own tests are in tests/):

1. one scripted reader following ``next`` on one template's feed as fast as it
   can for --seconds, beside workers that finish every job instantly (the
   worst case): generation jobs and memes it causes;
2. five fresh accounts doing the same on another template, one after another;
3. 200 fresh feed reads (no cursor) by one reader: answers and rows written;
4. 30 sign-ups from one address.

Runs on a throwaway SQLite database with the default settings:
    python bench/hostile_reader.py [--seconds 60]
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import throwaway_site  # noqa: E402

WORK = throwaway_site.start(LOG_LEVEL="ERROR")

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.files.base import ContentFile  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from feed.models import FeedPosition, Meme  # noqa: E402
from generation import tasks  # noqa: E402
from generation.layout import boxes_to_json, default_boxes  # noqa: E402
from generation.models import GenerationJob, Template  # noqa: E402

PASSWORD = "correct horse battery staple"


def template(slug: str, memes: int) -> Template:
    made = Template(name=slug, slug=slug, boxes=boxes_to_json(default_boxes(2)))
    made.image.save(f"{slug}.jpg", ContentFile(b"not read here"), save=False)
    made.save()
    make_memes(made, memes)
    return made


def make_memes(of: Template, count: int, job: GenerationJob | None = None) -> None:
    now = timezone.now()
    Meme.objects.bulk_create(
        Meme(template=of, texts=["a", "b"], status="ready", created_at=now, ready_at=now, job=job)
        for _ in range(count)
    )


def finish_every_job() -> None:
    """Workers as fast as can be: every open job's memes are ready at once."""
    for job in GenerationJob.objects.filter(status__in=["queued", "running"]).select_related("template"):
        make_memes(job.template, job.count, job)
        GenerationJob.objects.filter(pk=job.pk).update(status="done")


def reader(name: str) -> Client:
    client = Client()
    client.force_login(User.objects.create_user(name))
    return client


def page_for(client: Client, url: str, seconds: float) -> int:
    """Follow ``next`` for ``seconds``; returns the pages read."""
    pages, stop_at = 0, time.monotonic() + seconds
    while time.monotonic() < stop_at:
        page = client.get(url).json()
        finish_every_job()
        url, pages = page["next"], pages + 1
    return pages


def jobs_and_memes(of: Template) -> tuple[int, int]:
    return GenerationJob.objects.filter(template=of).count(), Meme.objects.filter(template=of).count()


def one_scripted_reader(seconds: float) -> None:
    target = template("target", 30)
    pages = page_for(reader("script"), "/api/feed/?template=target&page_size=50", seconds)
    jobs, memes = jobs_and_memes(target)
    print(
        f"1. one scripted reader, {seconds:.0f} s, {pages} pages: {jobs} jobs,"
        f" template grew 30 -> {memes} memes"
    )


def five_fresh_accounts(seconds: float) -> None:
    target = template("shared", 30)
    for n in range(5):
        page_for(reader(f"fresh{n}"), "/api/feed/?template=shared&page_size=50", seconds / 5)
    jobs, memes = jobs_and_memes(target)
    print(f"2. five fresh accounts, {seconds / 5:.0f} s each: {jobs} jobs, template grew 30 -> {memes} memes")


def fresh_reads() -> None:
    client, before = reader("reloader"), FeedPosition.objects.count()
    codes = Counter(client.get("/api/feed/").status_code for _ in range(200))
    rows = FeedPosition.objects.count() - before
    print(f"3. 200 fresh feed reads by one reader: {dict(codes)}, {rows} session rows written")


def sign_ups() -> None:
    before = User.objects.count()
    codes = Counter(
        Client(REMOTE_ADDR="203.0.113.7")
        .post("/accounts/signup/", {"username": f"new{n}", "password1": PASSWORD, "password2": PASSWORD})
        .status_code
        for n in range(30)
    )
    made = User.objects.count() - before
    print(f"4. 30 sign-ups from one address: {dict(codes)}, {made} accounts made")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60, help="how long the scripted readers page")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    logging.getLogger("django.request").setLevel(logging.ERROR)  # not a line per refusal
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    tasks.send_job = lambda job_id: None  # no broker: finish_every_job plays the workers
    print(
        f"limits: {settings.THROTTLE_FEED_JOBS} feed jobs a reader, template ceiling"
        f" {settings.GENERATION_TEMPLATE_CEILING}, {settings.THROTTLE_SITE_MEMES} memes"
        f" site-wide, {settings.THROTTLE_FEED_SESSIONS} fresh feeds,"
        f" {settings.THROTTLE_SIGN_UP} sign-ups per address"
    )
    one_scripted_reader(args.seconds)
    five_fresh_accounts(args.seconds)
    fresh_reads()
    sign_ups()


if __name__ == "__main__":
    main()
