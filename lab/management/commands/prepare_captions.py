"""DJANGO_SETTINGS_MODULE=lab.settings python manage.py prepare_captions --data <imgflip575k>
--out lab/runs/data"""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from lab.captions.data import prepare


class Command(BaseCommand):
    help = "Clean ImgFlip575K captions and write train/ and val/ splits (ImgFlip575K layout)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--data", required=True, help="directory holding memes/<Template-Slug>.json")
        parser.add_argument("--out", default="lab/runs/data", help="train/ and val/ splits and cleaning.json")
        parser.add_argument("--val-share", type=float, default=0.02)

    def handle(self, *args: Any, **opts: Any) -> None:
        report = prepare(Path(opts["data"]), Path(opts["out"]), opts["val_share"])
        self.stdout.write(json.dumps(report, indent=2))
