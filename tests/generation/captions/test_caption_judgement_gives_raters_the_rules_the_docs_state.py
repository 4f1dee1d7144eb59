"""Every set's rules.md gives its rater the rules docs/captions.md states, word for word: the
plain rules for plain and new-template sets, the keyword rules for keyword sets, and nothing else."""

from pathlib import Path

from generation.captions.judgement import KEYWORD_QUESTIONS, KEYWORD_RULES, QUESTIONS, RULES, rules_page

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
