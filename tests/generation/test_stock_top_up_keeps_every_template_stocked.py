from typing import Any

import pytest

from generation import tasks
from generation.models import GenerationJob
from generation.stock import top_up_stock
from tests.conftest import make_meme, make_template


@pytest.mark.django_db
def test_templates_short_of_stock_get_jobs_in_batches(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.GENERATION_STOCK_PER_TEMPLATE = 10
    settings.GENERATION_BATCH_SIZE = 4
    empty = make_template("empty")
    stocked = make_template("stocked")
    for _ in range(10):
        make_meme(stocked, ready_at=stocked.created_at)

    with django_capture_on_commit_callbacks() as sent:
        tasks.top_up_stock()  # the periodic task

    jobs = GenerationJob.objects.all()
    assert sorted(job.count for job in jobs) == [2, 4, 4]
    assert {job.template_id for job in jobs} == {empty.pk}
    assert len(sent) == 3, "each job goes to the broker once its row is committed"


@pytest.mark.django_db
def test_a_template_with_work_in_flight_is_not_topped_up_twice(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    make_template()
    top_up_stock()
    assert top_up_stock() == []
    assert GenerationJob.objects.count() >= 1


@pytest.mark.django_db
def test_inactive_templates_get_nothing(django_capture_on_commit_callbacks: Any) -> None:
    make_template(is_active=False)
    assert top_up_stock() == []
