"""Extending a long feed session on PostgreSQL costs what it reads, not what
it reads times what the session holds: the memes a session holds, and those
its reader has seen before, are hashed once, never compared one by one against
every candidate (which made the sixth extension of a session three times the
cost of the first)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from feed.ranking import sessions
from feed.ranking.sorts import SORTS, Sort
from tests.conftest import make_template
from tests.feed_data import bulk_memes, extended_session

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("sort", SORTS)
def test_the_extension_plan_hashes_the_held_memes(transactional_db: None, sort: Sort) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the integration run sets DATABASE_URL to PostgreSQL")
    bulk_memes(make_template("long"), 800)
    reader = User.objects.create_user("alice")
    state = extended_session(sort, reader, 5)
    select, values = sessions.candidates_statement(state, reader.pk, unseen=True)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + select.sql, select.bind(values))
        plan = "\n".join(row[0] for row in cursor.fetchall())
        transaction.set_rollback(True)
    assert "hashed SubPlan" in plan, plan
    assert "Join Filter" not in plan, plan
