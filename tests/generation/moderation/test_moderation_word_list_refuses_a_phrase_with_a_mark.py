"""A phrase in refused_words.txt is matched word for word: a `*`, `!` or `~` in one would make it
match nothing, so the list refuses to load rather than hold an entry that does nothing."""

from pathlib import Path

import pytest

from generation.moderation import lexicon, refusal


def test_a_phrase_with_a_root_mark_is_refused_at_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = tmp_path / "refused_words.txt"
    words.write_text("carpet muncher*\n", encoding="utf-8")
    monkeypatch.setattr(lexicon, "WORDS_FILE", words)
    lexicon.lexicon.cache_clear()
    try:
        with pytest.raises(ValueError, match="a phrase is plain words"):
            lexicon.lexicon()
    finally:
        lexicon.lexicon.cache_clear()


@pytest.mark.parametrize("text", ["carpetmunchers everywhere", "carpet munchers everywhere"])
def test_a_slur_listed_joined_and_as_a_phrase_is_refused_both_ways(text: str) -> None:
    reason = refusal(text)
    assert reason is not None and reason.reason == "profanity"
