"""DJANGO_SETTINGS_MODULE=lab.settings python manage.py train_captions --data lab/runs/data/train
--val lab/runs/data/val [--out lab/runs/captions] [--resume-from DIR | --init-from DIR]"""

from __future__ import annotations

import dataclasses
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from generation.captions.config import CaptionConfig
from lab.captions.config import TrainConfig


def add_dataclass_options(parser: ArgumentParser, cls: type, skip: tuple[str, ...] = ()) -> None:
    """One --option per dataclass field with a scalar default (e.g. --n-layer, --max-minutes)."""
    for f in dataclasses.fields(cls):
        if f.name in skip or isinstance(f.default, bool) or not isinstance(f.default, (int, float, str)):
            continue
        parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=f.default)


class Command(BaseCommand):
    help = "Train the caption GPT-2 (resumes from <out>/checkpoint.pt when present)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--data", required=True, help="training split, ImgFlip575K layout")
        parser.add_argument("--val", required=True, help="held-out split, ImgFlip575K layout")
        parser.add_argument(
            "--out",
            default=TrainConfig.out_dir,
            help="checkpoints, log and the finished model (under lab/runs/, which git ignores)",
        )
        add_dataclass_options(parser, TrainConfig, skip=("data_dir", "out_dir"))
        add_dataclass_options(parser, CaptionConfig)

    def handle(self, *args: Any, **opts: Any) -> None:
        # Loads torch: only when the command runs, not for --help.
        from lab.captions.train import train

        def pick(cls: type) -> dict[str, Any]:
            return {f.name: opts[f.name] for f in dataclasses.fields(cls) if f.name in opts}

        cfg = TrainConfig(**pick(TrainConfig), data_dir=opts["data"], out_dir=opts["out"])
        model_cfg = CaptionConfig(**pick(CaptionConfig))
        final = train(cfg, model_cfg, Path(opts["val"]), log=lambda s: self.stdout.write(s))
        self.stdout.write(self.style.SUCCESS(f"Done: {final}"))
