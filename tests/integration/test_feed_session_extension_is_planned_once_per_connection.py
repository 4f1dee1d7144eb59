"""On PostgreSQL, a connection that extends feed sessions again and again plans
the candidates statement once: psycopg prepares it, and its generic plan can
use the feed's partial indexes because the querysets' constants (``status =
'ready'``, ``likes + dislikes < 5``) are written into its SQL. Bound as values,
they proved no index's predicate, so PostgreSQL planned the statement anew on
every extension."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection

from feed.ranking import sessions
from feed.ranking.sorts import SORTS, Sort
from tests.conftest import make_template
from tests.feed_data import bulk_memes, extended_session

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("sort", SORTS)
def test_the_candidates_statement_runs_on_a_generic_plan(transactional_db: None, sort: Sort) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the integration run sets DATABASE_URL to PostgreSQL")
    if not connection.settings_dict["OPTIONS"].get("prepare_threshold"):
        pytest.skip("prepared statements are off (DATABASE_PREPARED_STATEMENTS=false)")
    bulk_memes(make_template("long"), 3000)
    reader = User.objects.create_user("alice")
    state = extended_session(sort, reader, 12)
    select, _ = sessions.candidates_statement(state, reader.pk, unseen=True)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE %s",
            [select.sql[:60].replace("%s", "$%") + "%"],
        )
        plans = cursor.fetchall()
    assert plans, "the candidates statement was never prepared"
    generic, custom = plans[0]
    assert generic > 0, f"planned anew every time: {custom} custom plans, no generic one"
