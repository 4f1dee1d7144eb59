"""Migration 0012 gives every existing name its skeleton keys, oldest account
first. Lookalikes that already stood side by side do not stop it: the later one
keeps its name and holds no keys, and a new lookalike of either is still refused
by the keys the older one holds."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from feed.models import UsernameSkeleton
from feed.names import TOO_ALIKE
from tests.conftest import PASSWORD

BEFORE = ("feed", "0011_feed_orders_read_from_the_index")
NAMES = ["alice", "\u0430lice", "Alice", "bob", "b\u043eb", "charlie"]  # о: Cyrillic small o


def users_before_the_keys() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    for name in NAMES:
        old.get_model("auth", "User").objects.create(username=name)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_oldest_of_each_set_of_lookalikes_holds_the_keys() -> None:
    users_before_the_keys()

    holders = UsernameSkeleton.objects.values_list("user__username", flat=True)
    assert sorted(holders) == ["alice", "bob", "charlie"]
    assert User.objects.count() == len(NAMES)  # every name is kept
    form = {"username": "\u0430lic\u0435", "password1": PASSWORD, "password2": PASSWORD}  # а, е: Cyrillic
    assert TOO_ALIKE in Client().post("/accounts/signup/", form).content.decode()
