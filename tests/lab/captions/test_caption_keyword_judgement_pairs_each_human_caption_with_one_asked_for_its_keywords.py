"""The keyword judgement's sheet: each held-out human caption comes with 1-3 of its own keywords,
and the product is asked for a caption of the same template, box count and keywords, as a
reader's make-a-meme request asks; the rater sees the keywords but not who wrote the caption."""

import csv
import io
from typing import Any

import pytest

from generation.captions import Caption, CaptionRequest, SamplingSettings
from generation.captions.keywords import uses_keyword
from generation.captions.rerank import Vocabulary
from lab.captions.judgement import (
    KEYWORD_QUESTIONS,
    Versus,
    blind_sheet,
    build_keyword_set,
    read_ratings,
    unblind,
)

HELD_OUT = {
    "Success-Kid": [["finally fixed the bug"], ["found money in my old jacket"], ["ok"]],
    "Drake-Hotline-Bling": [["doing homework", "memes about homework"], ["tea", "coffee at dawn"]],
    "Unknown-Template": [["caption of a template the model never saw"]],
}


class KeywordModel:
    """Writes "<keyword> all day" for each request and records what it was asked."""

    def __init__(self, vocabulary: Vocabulary | None = None) -> None:
        self.requests: list[CaptionRequest] = []
        self.vocabulary = vocabulary or Vocabulary()  # empty: every word may be a keyword

    def knows(self, slug: str) -> bool:
        return slug != "Unknown-Template"

    def write(
        self, requests: list[CaptionRequest], settings: SamplingSettings, rng_seed: Any = None
    ) -> list[Caption]:
        self.requests = requests
        return [
            Caption([f"{r.keywords[0]} all day"] * r.box_count, list(r.keywords), "v", {}, i)
            for i, r in enumerate(requests)
        ]


def test_each_human_caption_is_paired_with_a_product_caption_asked_for_its_keywords() -> None:
    model = KeywordModel()
    items, key = build_keyword_set(model, HELD_OUT, seed=5, per_source=10)  # type: ignore[arg-type]
    humans = [i for i in items if key[i.item_id] == "human"]
    products = [i for i in items if key[i.item_id] == "product"]
    assert len(humans) == len(products) == 4  # "ok" has no keyword; the unknown template is left out
    for request in model.requests:
        assert 1 <= len(request.keywords) <= 3 and request.n == 1
    for human in humans:
        assert all(uses_keyword(" ".join(human.boxes), k) for k in human.keywords)
        assert human.template != "Unknown-Template"
    asked = sorted((r.template_key, r.box_count, tuple(r.keywords)) for r in model.requests)
    assert asked == sorted((h.template, len(h.boxes), h.keywords) for h in humans)


def test_the_keywords_are_words_the_model_has_seen() -> None:
    # People's captions hold misspellings no reader would ask for ("slleps"); a word the model
    # never saw in training is not a keyword of the judgement.
    seen = frozenset(["homework", "memes", "coffee", "dawn", "doing"])
    model = KeywordModel(Vocabulary(seen))
    items, key = build_keyword_set(model, HELD_OUT, seed=5, per_source=10)  # type: ignore[arg-type]
    asked = {k for r in model.requests for k in r.keywords}
    assert asked and asked <= seen
    assert all(set(i.keywords) <= seen for i in items if key[i.item_id] == "human")


def test_the_sheet_shows_the_keywords_and_hides_the_source() -> None:
    items, key = build_keyword_set(KeywordModel(), HELD_OUT, seed=5, per_source=10)  # type: ignore[arg-type]
    sheet = blind_sheet(items, KEYWORD_QUESTIONS)
    rows = list(csv.DictReader(io.StringIO(sheet)))
    assert list(rows[0]) == ["id", "template", "keywords", "caption", "used_sensibly", "coherent"]
    assert "human" not in sheet and "product" not in sheet
    assert len({row["id"] for row in rows}) == len(rows) == len(key)


def test_keyword_ratings_unblind_with_both_questions_together() -> None:
    items, key = build_keyword_set(KeywordModel(), HELD_OUT, seed=5, per_source=10)  # type: ignore[arg-type]
    sheet = blind_sheet(items, KEYWORD_QUESTIONS)
    with pytest.raises(ValueError, match="used_sensibly, coherent must be 0 or 1"):
        read_ratings(sheet, KEYWORD_QUESTIONS)
    filled = sheet.replace(",,\r\n", ",1,0\r\n")
    report = unblind(read_ratings(filled, KEYWORD_QUESTIONS), key, KEYWORD_QUESTIONS)
    assert report["product"]["used_sensibly"]["rate"] == 1.0
    both = report["human"]["used_sensibly_and_coherent"]
    assert (both["yes"], both["of"]) == (0, 4)
    assert "coherent_and_in_format" not in report["product"]


def test_versus_settings_answer_the_same_keyword_prompts_in_the_same_sheet() -> None:
    model = KeywordModel()
    versus = Versus(model, SamplingSettings(keyword_boost=3.0))  # type: ignore[arg-type]
    items, key = build_keyword_set(model, HELD_OUT, seed=5, per_source=10, versus=versus)  # type: ignore[arg-type]
    by_source = {
        s: sorted((i.template, len(i.boxes), i.keywords) for i in items if key[i.item_id] == s)
        for s in ("product", "versus", "human")
    }
    assert by_source["versus"] == by_source["product"] == by_source["human"]
