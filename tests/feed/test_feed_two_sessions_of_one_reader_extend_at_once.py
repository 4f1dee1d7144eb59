"""A reader with two feeds open (two devices, two tabs each started anew)
scrolls both at once: every request is answered, and what both served is
remembered once."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from feed.models import SeenMeme, Template
from tests.feed_data import bulk_memes
from tests.parallel import all_at_once

pytestmark = pytest.mark.django_db(transaction=True)


def first_page(reader: User, sort: str) -> Any:
    client = APIClient()
    client.force_authenticate(reader)
    return client.get(f"/api/feed/?sort={sort}&page_size=20")


def test_six_new_feeds_of_one_reader_at_once(alice: User, template: Template) -> None:
    bulk_memes(template, 300, likes=6)
    answers = all_at_once([partial(first_page, alice, sort) for sort in ("hot", "top", "new") * 2])

    assert [answer.status_code for answer in answers] == [200] * 6
    served = {item["id"] for answer in answers for item in answer.json()["results"]}
    assert set(SeenMeme.objects.filter(user=alice).values_list("meme_id", flat=True)) == served


def test_remembering_the_same_memes_twice_at_once(alice: User, template: Template) -> None:
    ids = [meme.pk for meme in bulk_memes(template, 200)]
    all_at_once([partial(SeenMeme.objects.remember, alice.pk, ids[::-1] if n % 2 else ids) for n in range(6)])
    assert SeenMeme.objects.filter(user=alice).count() == 200
