""" "Make a meme" refuses a long list of keywords by its length, before any
keyword is looked at, and an over-long keyword before anything folds or checks
its text (a million keywords took 1.4-3 s to refuse). Bodies over the API's
64 KB, such as a million keywords or a megabyte keyword, are refused unread
(test_api_refuses_json_bodies_over_64_kb_unread)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework import serializers
from rest_framework.test import APIClient

from feed.models import Template
from generation import api as make_api
from generation.captions import keywords
from generation.models import GenerationJob


@pytest.fixture
def api(alice: User, template: Template) -> APIClient:
    client = APIClient()
    client.force_authenticate(alice)
    return client


@pytest.fixture
def keywords_looked_at(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every keyword a CharField validates, and every list clean_keywords checks."""
    seen: list[Any] = []
    to_internal_value = serializers.CharField.to_internal_value
    clean_keywords = keywords.clean_keywords

    def counted(original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            seen.append(args[-1])
            return original(*args)

        return call

    monkeypatch.setattr(serializers.CharField, "to_internal_value", counted(to_internal_value))
    monkeypatch.setattr("generation.api.clean_keywords", counted(clean_keywords))
    return seen


def test_thousands_of_keywords_are_refused_without_reading_one(
    api: APIClient, keywords_looked_at: list[Any]
) -> None:
    answer = api.post("/api/make/", {"template": "success", "keywords": ["cat"] * 8_000}, format="json")
    assert answer.status_code == 400
    assert answer.json() == {"keywords": ["at most 3 keywords are allowed"]}
    assert keywords_looked_at == []
    assert not GenerationJob.objects.exists()


def test_a_long_keyword_is_refused_before_it_is_folded(api: APIClient, keywords_looked_at: list[Any]) -> None:
    answer = api.post("/api/make/", {"template": "success", "keywords": ["x" * 60_000]}, format="json")
    assert answer.status_code == 400
    assert "no more than 100 characters" in str(answer.json()["keywords"])
    assert len(keywords_looked_at) == 1  # the one string's own check; clean_keywords never ran
    assert not GenerationJob.objects.exists()


def test_the_api_allows_as_many_keywords_as_the_model_takes() -> None:
    field = make_api.MakeRequestSerializer().fields["keywords"]
    assert isinstance(field, serializers.ListField) and field.max_length == keywords.MAX_KEYWORDS


def test_a_million_keywords_are_refused_by_the_bodys_size(
    api: APIClient, keywords_looked_at: list[Any]
) -> None:
    answer = api.post("/api/make/", {"template": "success", "keywords": ["cat"] * 1_000_000}, format="json")
    assert answer.status_code == 413 and keywords_looked_at == []
