"""Every set's rules.md gives its rater the rules docs/captions.md states, word for word: the
plain rules for plain and new-template sets, the keyword rules for keyword sets, and nothing else."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from generation.captions.tiny import tiny_caption_model
from lab.captions.judgement import KEYWORD_QUESTIONS, KEYWORD_RULES, QUESTIONS, RULES, rules_page
from lab.management.commands import judge_captions

DOCS = Path(__file__).resolve().parents[3] / "docs" / "captions.md"


def test_the_docs_state_both_sets_of_rules_word_for_word() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    assert RULES.strip() in docs
    assert KEYWORD_RULES.strip() in docs


def test_a_plain_set_gives_the_plain_rules_and_says_four_columns() -> None:
    page = rules_page(QUESTIONS)
    assert RULES in page and "Rules for keyword sets" not in page
    assert "fill the 4 answer columns" in page


def test_a_keyword_set_gives_the_keyword_rules_and_says_two_columns() -> None:
    page = rules_page(KEYWORD_QUESTIONS)
    assert KEYWORD_RULES in page and "**in_format**" not in page
    assert "fill the 2 answer columns" in page


def test_each_page_ends_with_its_rules() -> None:
    for questions in (QUESTIONS, KEYWORD_QUESTIONS):
        assert rules_page(questions).rstrip().endswith("Every answer is 0 or 1; every row is rated.")


def test_the_build_command_writes_the_rules_beside_the_sheet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for split in ("val", "train"):
        (tmp_path / "data" / split / "memes").mkdir(parents=True)
    fry = {
        "name": "Fry",
        "examples": ["not sure if a | or just b"] * 2,
        "people": ["not sure if c | or just d"],
    }
    (tmp_path / "new.json").write_text(json.dumps([fry]))
    monkeypatch.setattr(judge_captions, "KEY_DIR", tmp_path / "keys")
    monkeypatch.setattr(judge_captions.Command, "model", lambda self, opts, key="model": tiny_caption_model())
    out = tmp_path / "set"
    data, new = str(tmp_path / "data"), str(tmp_path / "new.json")
    build = ("build", "--out", str(out), "--data", data, "--seed", "1", "--new-templates", new)
    call_command(judge_captions.Command(), *build, "--per-source", "1")
    assert (out / "rules.md").read_text(encoding="utf-8") == rules_page(QUESTIONS)
    assert (out / "sheet.csv").is_file() and (out / "formats.md").is_file()
