"""DJANGO_SETTINGS_MODULE=lab.settings python manage.py train_moderation --imgflip PATH/imgflip575k/memes
[--c 4.0] [--threshold 0.6]: refit the meaning classifier from lab/moderation/training/ and real
ImgFlip575K captions, and write the product's generation/moderation/classifier.json."""

from __future__ import annotations

import dataclasses
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from generation.moderation.classifier import MODEL_FILE
from lab.management.commands.train_captions import add_dataclass_options
from lab.moderation.train import TrainSettings, train


class Command(BaseCommand):
    help = "Train the content check's meaning classifier (seconds, on CPU)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--imgflip",
            type=Path,
            required=True,
            help="ImgFlip575K's memes/ folder: real captions the classifier learns are ordinary",
        )
        add_dataclass_options(parser, TrainSettings)

    def handle(self, *args: Any, **opts: Any) -> None:
        memes_dir: Path = opts["imgflip"]
        if not any(memes_dir.glob("*.json")):
            raise CommandError(f"No ImgFlip575K caption files (*.json) in {memes_dir}")
        settings = TrainSettings(**{f.name: opts[f.name] for f in dataclasses.fields(TrainSettings)})
        model = train(settings, memes_dir)
        MODEL_FILE.write_text(model.to_json(), encoding="utf-8")
        self.stdout.write(f"{MODEL_FILE}: {len(model.weights)} weights, threshold {model.threshold}")
