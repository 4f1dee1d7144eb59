"""A curator is told where a template's joke format comes from: the model's training, the
openings of their examples, or nowhere, with what to give."""

import json
from pathlib import Path

from generation.captions.config import trained_templates
from generation.captions.formats import caption_format

TRAINED = frozenset({"Futurama-Fry", "Y-U-No"})
FRY = ["not sure if trolling | or just stupid", "not sure if tired | or just lazy"]


def test_a_template_the_model_was_trained_on_follows_what_it_learnt() -> None:
    found = caption_format("Futurama-Fry", TRAINED, [], 2)
    assert found.source == "trained" and not found.lacking


def test_a_new_template_opens_each_box_as_its_examples_do() -> None:
    found = caption_format("", TRAINED, FRY, 2)
    assert found.source == "examples" and found.openings == ("not sure if", "or just")
    assert "as most of the examples do: “not sure if …” | “or just …”" in found.note
    assert "does not know this template's joke" in found.note  # openings are all it carries


def test_a_new_template_without_examples_is_said_to_lack_a_format() -> None:
    found = caption_format("", TRAINED, [], 2)
    assert found.lacking and "no example captions" in found.note and "at least two" in found.note


def test_examples_of_another_box_count_or_without_a_shared_opening_are_named() -> None:
    assert "none of its example captions has 3 box(es)" in caption_format("", TRAINED, FRY, 3).note
    unlike = ["cats are great | dogs too", "my boss | at work"]
    note = caption_format("", TRAINED, unlike, 2).note
    assert "no opening words are shared by most" in note and "manner of the trained template" in note
    assert "manner" not in caption_format("", TRAINED, [], 2).note  # no examples: nothing to borrow by


def test_a_name_the_model_does_not_know_is_said_with_the_closest_it_does() -> None:
    found = caption_format("Futurama-Fy", TRAINED, FRY, 2)
    assert found.source == "examples"  # written for as a new template, from its examples
    assert found.lacking  # so saving it warns
    assert "no template named “Futurama-Fy”" in found.note and "“Futurama-Fry”" in found.note


def test_without_a_model_here_a_name_is_taken_unchecked() -> None:
    assert caption_format("Futurama-Fry", None, [], 2).source == "unchecked"
    assert caption_format("", None, [], 2).lacking  # a blank name needs no model to say so


def test_trained_templates_are_read_off_the_tokenizer_without_the_model(tmp_path: Path) -> None:
    tokens = ["<|endoftext|>", "<|tpl:any|>", "<|tpl:Y-U-No|>", "<|tpl:Futurama-Fry|>"]
    added = [{"content": t} for t in tokens]
    (tmp_path / "tokenizer.json").write_text(json.dumps({"added_tokens": added}))
    assert trained_templates(tmp_path) == TRAINED
    assert trained_templates(tmp_path / "missing") is None
    (tmp_path / "tokenizer.json").write_text("{not json")
    assert trained_templates(tmp_path) is None
    (tmp_path / "tokenizer.json").write_text(json.dumps({"added_tokens": [{"content": None}, "odd"]}))
    assert trained_templates(tmp_path) is None  # an odd tokenizer file reads as no model, not a crash
    assert trained_templates(str(tmp_path / "missing")) is None  # type: ignore[arg-type]


def test_the_shipped_model_knows_its_templates() -> None:
    shipped = trained_templates(Path(__file__).resolve().parents[3] / "models" / "captions")
    assert shipped is not None and len(shipped) == 88 and "Y-U-No" in shipped
