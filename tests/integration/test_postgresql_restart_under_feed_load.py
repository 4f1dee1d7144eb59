"""PostgreSQL restarted under the real site (gunicorn, production settings)
while readers scroll the feed and react: every answer in between is a clean
503 (JSON, Retry-After, no traceback), the site answers again within seconds
of PostgreSQL coming back, and every reaction it acknowledged is stored once,
with counts equal to a recount. With and without Django's connection health
checks, which decide whether a connection PostgreSQL dropped fails a request."""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.authtoken.models import Token

from feed.models import Meme, Reaction
from feed.ranking.scores import rating_of
from tests.conftest import make_template
from tests.feed_data import readers
from tests.integration.conftest import SITE_WORKERS, Answer, Site
from tests.integration.restart import restart_postgres

pytestmark = pytest.mark.integration

MEMES, SCROLLERS, REACTORS = 30, 2, 4
OUTAGE_SECONDS = 2.0  # PostgreSQL stays down this long
RECOVERY_SECONDS = 5.0  # every request that starts this long after PostgreSQL is back must succeed
HEALTH_CHECKS = pytest.mark.parametrize(
    "health_checks", [True, False], ids=["health checks", "no health checks"]
)


@dataclass
class Reader:
    user: User
    token: str
    answers: list[Answer] = field(default_factory=list)
    # (meme id, value or None for a removal, acknowledged with a 200)
    changes: list[tuple[int, int | None, bool]] = field(default_factory=list)


def sign_in(count: int, prefix: str) -> list[Reader]:
    return [Reader(user, Token.objects.create(user=user).key) for user in readers(count, prefix)]


def ready_memes() -> list[int]:
    template, now = make_template(), timezone.now()
    scores = Meme.initial_scores(now, template.like_rate)
    return [
        Meme.objects.create(
            template=template, texts=[f"meme {n}", "b"], status="ready", ready_at=now, **scores
        ).pk
        for n in range(MEMES)
    ]


def scroll(site: Site, reader: Reader, stop: threading.Event) -> None:
    """Follow the feed page after page, from the top again at its end; a
    failed page is asked for again."""
    first = "/api/feed/?page_size=10"
    path = first
    while not stop.is_set():
        answer = site.ask("GET", path, reader.token)
        reader.answers.append(answer)
        if answer.status == 200:
            page = json.loads(answer.body)
            after = urlsplit(page["next"])
            path = f"{after.path}?{after.query}" if page["results"] else first


def react(site: Site, reader: Reader, meme_ids: list[int], stop: threading.Event) -> None:
    """Random likes, dislikes and removals, each remembered with its outcome."""
    rng = random.Random(reader.user.pk)
    while not stop.is_set():
        meme_id, value = rng.choice(meme_ids), rng.choice([1, -1, None])
        path = f"/api/memes/{meme_id}/reaction/"
        if value is None:
            answer = site.ask("DELETE", path, reader.token)
        else:
            answer = site.ask("PUT", path, reader.token, {"value": value})
        reader.answers.append(answer)
        reader.changes.append((meme_id, value, answer.status == 200))


def possible_reactions(changes: list[tuple[int, int | None, bool]]) -> dict[int, set[int | None]]:
    """What each meme may hold from one reader: what the last acknowledged change
    set, or what any later change that failed set (a failure may have landed)."""
    possible: dict[int, set[int | None]] = {}
    for meme_id, value, acknowledged in changes:
        possible[meme_id] = {value} if acknowledged else possible.get(meme_id, {None}) | {value}
    return possible


def assert_clean(answer: Answer) -> None:
    """A success, or a 503 that tells an API client to come back: JSON with
    Retry-After, nothing of the server's insides."""
    assert answer.status in (200, 503), (answer.status, answer.body[:500])
    assert "Traceback" not in answer.body, answer.body[:500]
    assert "You're seeing this error because you have" not in answer.body  # Django's debug page
    if answer.status == 503:
        assert answer.retry_after is not None and answer.retry_after.isdigit()
        assert "detail" in json.loads(answer.body)


@dataclass(frozen=True)
class Outage:
    down: float  # time.monotonic() when PostgreSQL was stopped
    back: float  # and when it accepted connections again
    answers: list[Answer]  # every answer the readers got, in the order asked


def restart_under_load(
    site: Site, scrollers: list[Reader], reactors: list[Reader], meme_ids: list[int]
) -> Outage:
    stop = threading.Event()
    threads = [threading.Thread(target=scroll, args=(site, reader, stop)) for reader in scrollers] + [
        threading.Thread(target=react, args=(site, reader, meme_ids, stop)) for reader in reactors
    ]
    for thread in threads:
        thread.start()
    time.sleep(2)
    down = time.monotonic()
    back = restart_postgres(down_seconds=OUTAGE_SECONDS)
    time.sleep(RECOVERY_SECONDS + 2)
    stop.set()
    for thread in threads:
        thread.join()
    answers = sorted((a for reader in scrollers + reactors for a in reader.answers), key=lambda a: a.started)
    return Outage(down, back, answers)


def assert_every_acknowledged_reaction_stored_once(reactors: list[Reader], meme_ids: list[int]) -> None:
    for reactor in reactors:
        stored = dict(Reaction.objects.filter(user=reactor.user).values_list("meme_id", "value"))
        for meme_id, possible in possible_reactions(reactor.changes).items():
            assert stored.get(meme_id) in possible, (reactor.user, meme_id, possible)
    for meme in Meme.objects.filter(pk__in=meme_ids):
        rows = Reaction.objects.filter(meme=meme)
        assert (meme.likes, meme.dislikes) == (rows.filter(value=1).count(), rows.filter(value=-1).count())
        assert meme.rating == pytest.approx(rating_of(meme.likes, meme.dislikes, meme.prior))


@HEALTH_CHECKS
def test_the_site_answers_503_during_a_postgresql_restart_and_recovers_within_seconds(
    start_site: Callable[..., Site], health_checks: bool
) -> None:
    meme_ids = ready_memes()
    scrollers, reactors = sign_in(SCROLLERS, "scroller"), sign_in(REACTORS, "reactor")
    site = start_site({"DATABASE_CONN_HEALTH_CHECKS": str(health_checks).lower()})
    for reader in scrollers + reactors:
        assert site.ask("GET", "/api/feed/", reader.token).status == 200  # up, and each token remembered

    outage = restart_under_load(site, scrollers, reactors, meme_ids)
    for answer in outage.answers:
        assert_clean(answer)
    failed = [a for a in outage.answers if a.status != 200]
    assert failed, "no request met the outage: nothing was tested"
    after = [a for a in outage.answers if a.started >= outage.back]
    recovered = next(a.finished for a in after if a.status == 200) - outage.back
    statuses = dict(Counter(a.status for a in outage.answers))
    print(f"\nhealth checks {'on' if health_checks else 'off'}: {statuses}; "
          f"PostgreSQL down {outage.back - outage.down:.1f} s; "
          f"last 503 ended {max(a.finished for a in failed) - outage.back:+.2f} s from its return, "
          f"{sum(a.status != 200 for a in after)} asked after it; "
          f"first 200 after it in {recovered:.2f} s")  # fmt: skip
    assert recovered < RECOVERY_SECONDS
    assert all(a.status == 200 for a in after if a.started >= outage.back + RECOVERY_SECONDS)
    assert_every_acknowledged_reaction_stored_once(reactors, meme_ids)


@HEALTH_CHECKS
def test_an_idle_site_after_a_postgresql_restart_fails_at_most_one_request_per_worker(
    start_site: Callable[..., Site], health_checks: bool
) -> None:
    """Persistent connections outlive a restart unnoticed while the site is
    idle. With health checks the first request replaces its worker's
    connection; without, it fails with a 503 and Django drops the connection."""
    ready_memes()
    (reader,) = sign_in(1, "reader")
    site = start_site({"DATABASE_CONN_HEALTH_CHECKS": str(health_checks).lower()})
    for _ in range(4 * SITE_WORKERS):  # every worker holds a connection
        assert site.ask("GET", "/api/feed/", reader.token).status == 200
    restart_postgres()
    # Which worker takes a request is the kernel's choice: one may be first asked late in the
    # round, so its one failure can be any request, the last included; over two rounds each
    # worker still fails at most once.
    answers = [site.ask("GET", "/api/feed/", reader.token) for _ in range(8 * SITE_WORKERS)]
    for answer in answers:
        assert_clean(answer)
    failed = sum(answer.status != 200 for answer in answers)
    mode = "on" if health_checks else "off"
    print(f"\nhealth checks {mode}: {failed} of {len(answers)} requests failed after a restart")
    assert failed == 0 if health_checks else failed <= SITE_WORKERS
