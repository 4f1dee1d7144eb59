"""python manage.py sample_captions --template Drake-Hotline-Bling --boxes 2 --keywords cat,monday -n 5"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from generation.captions.config import SamplingSettings
from generation.captions.errors import CaptionError
from generation.captions.types import CaptionRequest


class Command(BaseCommand):
    help = "Print filtered captions from the caption model."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--template", default=None, help="ImgFlip slug; unknown or absent = generic")
        parser.add_argument("--boxes", type=int, default=2)
        parser.add_argument("--keywords", default="", help="comma-separated, at most 3")
        parser.add_argument("--example", action="append", default=[], help="example caption (repeatable)")
        parser.add_argument("-n", type=int, default=5)
        defaults = SamplingSettings()
        parser.add_argument("--temperature", type=float, default=defaults.temperature)
        parser.add_argument("--top-k", type=int, default=defaults.top_k)
        parser.add_argument("--top-p", type=float, default=defaults.top_p)
        parser.add_argument("--keyword-boost", type=float, default=defaults.keyword_boost)
        parser.add_argument(
            "--template-guidance", type=float, default=defaults.template_guidance, help="1 = off"
        )
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--model", default=None, help="model directory (default: CAPTION_MODEL_DIR)")

    def handle(self, *args: Any, **opts: Any) -> None:
        # Loads torch: only when the command runs, not for --help.
        from generation.captions.model import load_caption_model

        keywords = [k for k in opts["keywords"].split(",") if k.strip()] if opts["keywords"] else []
        request = CaptionRequest(opts["template"], opts["boxes"], keywords, opts["example"], opts["n"])
        try:
            sampling = SamplingSettings(
                temperature=opts["temperature"],
                top_k=opts["top_k"],
                top_p=opts["top_p"],
                keyword_boost=opts["keyword_boost"],
                template_guidance=opts["template_guidance"],
            )
            model = load_caption_model(Path(opts["model"] or settings.CAPTION_MODEL_DIR))
            captions = model.write([request], sampling, rng_seed=opts["seed"])
        except CaptionError as error:
            raise CommandError(str(error)) from None
        known = "known" if opts["template"] and model.knows(opts["template"]) else "generic token"
        self.stdout.write(f"model {model.version}, template {opts['template']} ({known})")
        for caption in captions:
            keywords_used = f"  [keywords: {', '.join(caption.keywords)}]" if caption.keywords else ""
            self.stdout.write(" | ".join(caption.boxes) + keywords_used)
