"""The limiter's buckets moved from the feed app to the site (memesite) without
moving a row, and the buckets of limits that had keys of their own were named
by their policy: a reader who had spent their hour of "make a meme" before the
upgrade is still refused after it, and no limit starts full again. The table,
its columns and index are unchanged; the content type moves with the model.
`make unit-postgresql` runs it on PostgreSQL too."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from memesite import limits
from memesite.models import RateLimitBucket

FEED_BEFORE = ("feed", "0012_username_skeletons")
BEFORE = [FEED_BEFORE, ("memesite", None)]
# Keys as the feed's limiter wrote them, and as the site's names them.
KEYS = {
    "make:reader:7": "generation_hourly:reader:7",
    "make:site": "generation_site:site",
    "make-memes:site": "request_memes:site",
    "memes:site": "site_memes:site",
    "feed-jobs:reader:7": "feed_jobs:reader:7",
    "sign-up:address:203.0.113.7": "sign_up:address:203.0.113.7",
    "sign-up:site": "sign_up_site:site",
    "reactions:reader:7": "reactions:reader:7",
    "sign_in:address:203.0.113.7": "sign_in:address:203.0.113.7",
}


def table() -> tuple[list[str], list[str]]:
    with connection.cursor() as cursor:
        columns = connection.introspection.get_table_description(cursor, "feed_ratelimitbucket")
        constraints = connection.introspection.get_constraints(cursor, "feed_ratelimitbucket")
    return sorted(column.name for column in columns), sorted(constraints)


def migrate_to(*targets: tuple[str, str | None]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(list(targets))
    return MigrationExecutor(connection)


@pytest.mark.django_db(transaction=True)
def test_every_bucket_keeps_what_it_holds_under_its_policys_name(settings: Any) -> None:
    now = time.time()
    executor = migrate_to(*BEFORE)
    shape = table()
    old = executor.loader.project_state(FEED_BEFORE).apps.get_model("feed", "RateLimitBucket")
    old.objects.bulk_create([old(key=key, tokens=0.5, updated=now) for key in KEYS])

    migrate_to(*executor.loader.graph.leaf_nodes())

    assert table() == shape
    assert dict(RateLimitBucket.objects.values_list("key", "tokens")) == dict.fromkeys(KEYS.values(), 0.5)
    assert ContentType.objects.filter(model="ratelimitbucket").get().app_label == "memesite"
    settings.THROTTLE_GENERATION_HOURLY = "30/hour"  # half a use comes back in a minute
    assert not limits.take("generation_hourly", "reader:7")
