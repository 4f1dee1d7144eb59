"""DJANGO_SETTINGS_MODULE=lab.settings python manage.py evaluate_captions --data lab/runs/data/val --json
[--model PATH]"""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from generation.captions.config import SamplingSettings
from generation.captions.errors import CaptionError


class Command(BaseCommand):
    help = "Score the caption model on DIR/memes/<Template-Slug>.json (ImgFlip575K layout)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--data", required=True, help="held-out split in ImgFlip575K layout")
        parser.add_argument("--model", default=None, help="model directory (default: CAPTION_MODEL_DIR)")
        parser.add_argument("--json", action="store_true", help="print one JSON object and nothing else")
        parser.add_argument("--samples", type=int, default=1000)
        parser.add_argument("--keyword-prompts", type=int, default=500)
        parser.add_argument("--max-captions", type=int, default=0, help="0 = every held-out caption")
        parser.add_argument("--seed", type=int, default=1234)
        parser.add_argument("--device", default="cpu")
        parser.add_argument(
            "--keyword-boost",
            type=float,
            default=None,
            help="override the sampler's default (0 = the model alone)",
        )
        parser.add_argument("--temperature", type=float, default=None, help="override the sampler's default")
        parser.add_argument(
            "--keyword-start-share",
            type=float,
            default=None,
            help="override the share of the keyword boost given at a box's start",
        )
        parser.add_argument(
            "--bare-keyword-boxes",
            action="store_true",
            help="let a keyword that opens a box also close it (the sampler before boxes were held open)",
        )
        parser.add_argument(
            "--candidates",
            type=int,
            default=None,
            help="captions drawn per caption shown (default: CAPTION_CANDIDATES)",
        )
        parser.add_argument(
            "--template-guidance",
            type=float,
            default=None,
            help="override the sampler's default (1 = no guidance)",
        )
        parser.add_argument(
            "--end-bonus", type=float, default=None, help="override the sampler's default (0 = off)"
        )
        parser.add_argument(
            "--length-cost", type=float, default=None, help="override the reranking's default (0 = off)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        # torch, the evaluation and the model: only when the command runs, not for --help.
        import torch

        from generation.captions.model import load_caption_model
        from lab.captions.evaluate import EvalSettings, evaluate

        torch.manual_seed(opts["seed"])
        model_dir = Path(opts["model"] or settings.CAPTION_MODEL_DIR)
        overrides = {
            name: opts[name]
            for name in (
                "keyword_boost",
                "template_guidance",
                "temperature",
                "keyword_start_share",
                "end_bonus",
                "length_cost",
            )
            if opts[name] is not None
        }
        if opts["bare_keyword_boxes"]:
            overrides["bare_keyword_boxes"] = True
        overrides["candidates"] = opts["candidates"] or settings.CAPTION_CANDIDATES
        overrides["keyword_candidates"] = settings.CAPTION_KEYWORD_CANDIDATES
        try:
            sampling = SamplingSettings(**overrides)
            model = load_caption_model(model_dir, opts["device"])
        except CaptionError as error:
            raise CommandError(str(error)) from None
        ev = EvalSettings(
            samples=opts["samples"],
            keyword_prompts=opts["keyword_prompts"],
            seed=opts["seed"],
            max_captions=opts["max_captions"],
        )
        try:
            metrics = evaluate(model, Path(opts["data"]), ev, sampling)
        except (FileNotFoundError, ValueError) as error:
            raise CommandError(str(error)) from None
        if opts["json"]:
            self.stdout.write(json.dumps(metrics))
        else:
            for key, value in metrics.items():
                self.stdout.write(f"{key:>24}: {value}")
