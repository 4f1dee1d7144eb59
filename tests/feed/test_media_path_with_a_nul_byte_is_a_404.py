"""A media path holding a NUL byte (``/media/…%00``) is a 404 for anyone, staff
included, and never reaches the database: PostgreSQL refuses a NUL in a query
(``DataError``), which answered a signed-out visitor with a 500."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from feed.models import Template
from tests.feed_data import pictured_meme

pytestmark = pytest.mark.django_db


def nul_paths(template: Template) -> list[str]:
    meme = pictured_meme(template, ["top", "bottom"], "teal")
    return [
        f"{meme.image.url}%00",
        f"{meme.image.url}%00.600w.webp",
        f"{template.image.url}%00",
        "/media/memes/%00",
        "/media/%00",
    ]


def test_a_visitor_gets_a_404_without_a_query(
    client: Client, template: Template, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    for path in nul_paths(template):
        with django_assert_num_queries(0):
            assert client.get(path).status_code == 404, path


def test_staff_get_a_404_too(client: Client, template: Template, staff: User) -> None:
    client.force_login(staff)
    for path in nul_paths(template):
        assert client.get(path).status_code == 404, path
