"""A caption worker takes queued jobs in turn, whichever job a message named:
readers' own requests ("make a meme") before the feed's and the stock's
batches, and among requests the reader with the fewest jobs open first. So
twenty accounts that queued many requests, behind stock batches, hold a new
reader's request back by at most the job in hand (before, in the order
queued: 11 minutes behind 800 memes). Every job is still run exactly once."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from generation import jobs, tasks
from generation.models import GenerationJob, Template
from tests.conftest import make_template
from tests.parallel import all_at_once

FLOODERS, EACH = 20, 5
Reason = GenerationJob.Reason


def queue(template: Template, reason: str, user: User | None = None, count: int = 4) -> GenerationJob:
    return GenerationJob.objects.create(template=template, count=count, reason=reason, requested_by=user)


@pytest.fixture
def flood(db: None) -> tuple[Template, GenerationJob]:
    """Stock batches first, then twenty accounts' requests, then alice's one."""
    template = make_template(model_key="Success-Kid")
    for _ in range(3):
        queue(template, Reason.STOCK, count=64)
    for number in range(FLOODERS):
        flooder = User.objects.create_user(f"flooder{number}")
        for _ in range(EACH):
            queue(template, Reason.REQUEST, flooder)
    alice = User.objects.create_user("alice")
    return template, queue(template, Reason.REQUEST, alice)


def test_a_new_readers_request_is_next_in_turn(flood: tuple[Template, GenerationJob]) -> None:
    _, alices = flood
    assert GenerationJob.objects.in_turn().first() == alices


def test_requests_come_before_batches_and_readers_take_turns(
    flood: tuple[Template, GenerationJob], caption_model: Any
) -> None:
    served: list[GenerationJob] = []
    while GenerationJob.objects.filter(status=GenerationJob.Status.QUEUED).exists():
        jobs.write_captions_in_turn(1)
        served.append(GenerationJob.objects.exclude(claimed_at=None).latest("claimed_at"))
    assert [job.reason for job in served] == [Reason.REQUEST] * (FLOODERS * EACH + 1) + [Reason.STOCK] * 3
    assert served[0] == flood[1]  # alice's, queued last
    for round_ in range(EACH):  # then every flooder once before any flooder again
        turns = served[1 + round_ * FLOODERS : 1 + (round_ + 1) * FLOODERS]
        assert len({job.requested_by_id for job in turns}) == FLOODERS


def test_a_message_for_another_job_runs_the_job_in_turn(
    flood: tuple[Template, GenerationJob], caption_model: Any
) -> None:
    _, alices = flood
    stock_batch = GenerationJob.objects.filter(reason=Reason.STOCK).earliest("created_at")
    tasks.write_captions([str(stock_batch.pk)])
    alices.refresh_from_db()
    stock_batch.refresh_from_db()
    assert alices.captions_written and stock_batch.status == GenerationJob.Status.QUEUED


def test_each_message_runs_one_job_until_every_job_ran_once(
    flood: tuple[Template, GenerationJob], caption_model: Any
) -> None:
    every = list(GenerationJob.objects.values_list("pk", flat=True))
    for job_id in every:  # one message per job, in the order they were sent
        tasks.write_captions([str(job_id)])
    assert not GenerationJob.objects.filter(status=GenerationJob.Status.QUEUED).exists()
    assert GenerationJob.objects.filter(captions_written=True).count() == len(every)
    assert GenerationJob.objects.filter(attempts=1).count() == len(every)


@pytest.mark.django_db(transaction=True)
def test_workers_taking_turns_at_once_claim_each_job_once(caption_model: Any) -> None:
    template = make_template(model_key="Success-Kid")
    readers = [User.objects.create_user(f"reader{number}") for number in range(6)]
    for reader in readers:
        queue(template, Reason.REQUEST, reader, count=1)
    all_at_once([lambda: jobs.write_captions_in_turn(1)] * 6)
    claimed = GenerationJob.objects.values_list("attempts", flat=True)
    assert sorted(claimed) == [1] * 6
