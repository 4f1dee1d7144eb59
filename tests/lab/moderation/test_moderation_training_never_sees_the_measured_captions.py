"""The meaning classifier learns ordinary captions from real ImgFlip575K ones, but never from the
captions it is measured on (the measured bucket, the measured sets) nor from ones the word list
refuses; the training command says plainly when the captions are missing."""

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from lab.management.commands import train_moderation
from lab.moderation.train import in_measured_bucket, measured_lines, ordinary_real_captions


def write_memes(folder: Path, captions: list[list[str]]) -> Path:
    folder.mkdir()
    (folder / "Some-Template.json").write_text(json.dumps([{"boxes": boxes} for boxes in captions]))
    return folder


def unmeasured(prefix: str) -> str:
    return next(t for n in range(100) if not in_measured_bucket(t := f"{prefix} number {n}"))


def measured(prefix: str) -> str:
    return next(t for n in range(100) if in_measured_bucket(t := f"{prefix} number {n}"))


def test_only_unmeasured_captions_without_refused_words_are_drawn(tmp_path: Path) -> None:
    kept, profane, in_bucket = unmeasured("my dog ate"), unmeasured("fuck mondays"), measured("my cat ate")
    from_a_measured_set = next(iter(sorted(measured_lines()))).split(" | ")
    memes = write_memes(tmp_path / "memes", [[kept], [profane], [in_bucket], from_a_measured_set])
    assert ordinary_real_captions(memes, count=10, seed=0) == [kept]


def test_training_without_the_captions_folder_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="No ImgFlip575K caption files"):
        call_command(train_moderation.Command(), "--imgflip", str(tmp_path / "nowhere"))
