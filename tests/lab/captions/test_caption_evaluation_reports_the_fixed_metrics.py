import json
from pathlib import Path

from generation.captions.prompt import caption_chars
from generation.captions.tiny import SAMPLE_MEMES, tiny_caption_model
from lab.captions.data import write_memes
from lab.captions.evaluate import EvalSettings, distinct_n, evaluate

KEYS = {
    "nats_per_char",
    "distinct_1",
    "distinct_2",
    "novelty",
    "keyword_adherence",
    "template_fidelity_ratio",
    "n_captions",
    "n_templates",
    "n_skipped_templates",
    # added later, beside the fixed ones: the captions as the product shows them
    "shown_distinct_1",
    "shown_distinct_2",
    "job_distinct_1",
    "job_distinct_2",
    "shown_nonword_share",
}


def test_evaluation_returns_exactly_the_agreed_keys_and_skips_unknown_templates(tmp_path: Path) -> None:
    held_out = {slug: caps * 6 for slug, caps in SAMPLE_MEMES.items()}
    held_out["Never-Seen-Template"] = [["a caption for a template the model lacks"]]
    write_memes(tmp_path, held_out)
    metrics = evaluate(
        tiny_caption_model(), tmp_path, EvalSettings(samples=20, keyword_prompts=10, batch_size=20)
    )
    assert set(metrics) == KEYS
    assert metrics["n_templates"] == 3 and metrics["n_skipped_templates"] == 1
    assert metrics["n_captions"] == 36
    assert 0 < metrics["nats_per_char"] < 10
    assert 0 <= metrics["novelty"] <= 1 and 0 <= metrics["keyword_adherence"] <= 1
    assert 0 <= metrics["shown_distinct_2"] <= 1 and 0 <= metrics["shown_nonword_share"] <= 1
    json.dumps(metrics)


def test_characters_count_one_per_box_separator_and_one_for_the_end() -> None:
    assert caption_chars(["ab", "cde"]) == len("ab|cde") + 1


def test_distinct_n_is_unique_over_total_word_ngrams() -> None:
    assert distinct_n(["a b a b"], 1) == 0.5
    assert distinct_n(["a b a b"], 2) == 2 / 3
