"""The caption model learnt from captions in plain ASCII and never writes an
accent, so a keyword with one was accepted and almost never used (8 of 160
captions held "café", "jalapeño", "pokémon" or "naïve" as typed or plainly).
Latin letters with marks are now written plainly ("cafe": 73 of 160), and a
keyword in another script, which has no plain spelling, is refused with the
reason instead of being silently ignored."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from generation.captions import KeywordError, clean_keywords
from generation.models import GenerationJob
from tests.conftest import make_template


def test_latin_letters_with_marks_are_written_plainly() -> None:
    assert clean_keywords(["café", "Jalapeño", "straße"]) == ["cafe", "jalapeno", "strasse"]
    assert clean_keywords(["Pokémon", "pokemon"]) == ["pokemon"]  # one keyword, once


@pytest.mark.parametrize("word", ["кот", "γάτα", "naïve кот"])
def test_a_keyword_in_another_script_is_refused_naming_its_letters(word: str) -> None:
    with pytest.raises(KeywordError, match=r"cannot write: .*U\+0[34]\w\w.*plain Latin letters"):
        clean_keywords([word])


def test_a_keyword_written_longer_than_allowed_is_refused() -> None:
    with pytest.raises(KeywordError, match="over 30 characters"):
        clean_keywords(["ß" * 20])


@pytest.mark.django_db
def test_make_a_meme_answers_with_the_keywords_as_the_model_reads_them(alice: User) -> None:
    make_template("success")
    client = APIClient()
    client.force_authenticate(alice)
    answer = client.post("/api/make/", {"template": "success", "keywords": ["café"]}, format="json")
    assert answer.status_code == 202 and answer.data["keywords"] == ["cafe"]
    refused = client.post("/api/make/", {"template": "success", "keywords": ["кот"]}, format="json")
    assert refused.status_code == 400 and "plain Latin letters" in str(refused.data)
    assert GenerationJob.objects.count() == 1
