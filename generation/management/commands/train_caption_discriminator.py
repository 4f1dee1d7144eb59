"""python manage.py train_caption_discriminator --data runs/data [--model DIR] [-n 12000] [--seed 1]:
sample the caption model, fit the discriminator that tells its samples from people's training
captions, report its accuracy on fresh samples and held-out captions, and write
discriminator.json into the model directory (docs/captions.md, "Reranking")."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from generation.captions.data import load_memes
from generation.captions.discriminator import DISCRIMINATOR_FILE


class Command(BaseCommand):
    help = "Train the reranking discriminator of a caption model (minutes, on CPU)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--data", type=Path, required=True, help="prepare_captions output (train/, val/)")
        parser.add_argument(
            "--model", type=Path, default=None, help="model directory (default: CAPTION_MODEL_DIR)"
        )
        parser.add_argument(
            "-n", type=int, default=12000, help="model samples to train on (as many people's)"
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--c", type=float, default=1.0, help="inverse regularisation strength")

    def handle(self, *args: Any, **opts: Any) -> None:
        from generation.captions.discriminator import accuracy, discriminator_data, train_discriminator
        from generation.captions.model import load_caption_model

        if opts["n"] < 100:
            raise CommandError("-n must be at least 100 samples")
        data_dir: Path = opts["data"]
        try:
            train, val = load_memes(data_dir / "train"), load_memes(data_dir / "val")
        except FileNotFoundError as exc:
            raise CommandError(f"{exc}; run prepare_captions first") from exc
        model_dir = Path(opts["model"] or settings.CAPTION_MODEL_DIR)
        model = load_caption_model(model_dir)
        discriminator = train_discriminator(
            discriminator_data(model, train, opts["n"], opts["seed"]), opts["c"]
        )
        held_out = discriminator_data(model, val, max(300, opts["n"] // 10), opts["seed"] + 1000)
        discriminator.save(model_dir)
        self.stdout.write(
            f"{model_dir / DISCRIMINATOR_FILE}: {len(discriminator.weights)} weights; "
            f"accuracy on fresh samples and held-out captions {accuracy(discriminator, held_out):.3f}"
        )
