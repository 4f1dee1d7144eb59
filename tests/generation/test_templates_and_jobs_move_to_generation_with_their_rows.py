"""Templates and generation jobs moved from the feed app to generation without
moving a row: a database that holds a template, a job, its meme and a reader's
preference before the move holds the same rows after it, read through the new
models, with the tables, constraints and indexes unchanged, and a permission
granted on jobs still held. `make unit-postgresql` runs it on PostgreSQL too."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from feed.models import Meme, UserSettings
from generation.models import GenerationJob, Template

BEFORE = ("feed", "0006_rate_limits_as_token_buckets")
MOVE = ("feed", "0007_templates_and_jobs_belong_to_generation")
JOB_ID = uuid.UUID(int=42)
TABLES = ("feed_template", "feed_generationjob", "feed_meme", "feed_usersettings")


def schema() -> dict[str, Any]:
    introspection = connection.introspection
    with connection.cursor() as cursor:
        return {
            table: (
                sorted(column.name for column in introspection.get_table_description(cursor, table)),
                sorted(introspection.get_constraints(cursor, table)),
            )
            for table in TABLES
        }


def migrate_to(*targets: tuple[str, str | None]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(list(targets))
    return executor


def rows_before_the_move(executor: MigrationExecutor) -> None:
    """A template, a job for alice, its meme and her preference, made with the
    models as the feed app had them; alice may view jobs."""
    others = [node for node in executor.loader.graph.leaf_nodes() if node[0] not in ("feed", "generation")]
    old = executor.loader.project_state([*others, BEFORE]).apps
    alice = old.get_model("auth", "User").objects.create(username="alice")
    template = old.get_model("feed", "Template").objects.create(
        name="Success", slug="success", image="templates/success.jpg", boxes=[]
    )
    job = old.get_model("feed", "GenerationJob").objects.create(
        id=JOB_ID, template=template, count=2, reason="request", requested_by=alice, keywords=["cat"]
    )
    old.get_model("feed", "Meme").objects.create(template=template, job=job, texts=["a", "b"])
    old.get_model("feed", "UserSettings").objects.create(user=alice, preferred_template=template)
    content_types = old.get_model("contenttypes", "ContentType").objects
    jobs_type = content_types.get(app_label="feed", model="generationjob")
    permissions = old.get_model("auth", "Permission").objects
    alice.user_permissions.add(permissions.get(content_type=jobs_type, codename="view_generationjob"))


def check_the_move() -> None:
    migrate_to(BEFORE, ("generation", None))
    before = schema()
    rows_before_the_move(MigrationExecutor(connection))

    migrate_to(MOVE)
    assert schema() == before, "the move changes no table, column, constraint or index"

    executor = MigrationExecutor(connection)
    migrate_to(*executor.loader.graph.leaf_nodes())  # and what came after it, for today's models
    job = GenerationJob.objects.select_related("template").get()
    assert (job.pk, job.template.slug, job.count, job.keywords) == (JOB_ID, "success", 2, ["cat"])
    assert job.requested_by is not None and job.requested_by.username == "alice"
    meme = Meme.objects.get()
    assert (meme.job_id, meme.template_id) == (JOB_ID, job.template_id)
    assert UserSettings.objects.get().preferred_template_id == Template.objects.get().pk
    assert User.objects.get(username="alice").has_perm("generation.view_generationjob")


@pytest.mark.django_db(transaction=True)
def test_the_move_keeps_every_row_and_the_schema() -> None:
    check_the_move()
