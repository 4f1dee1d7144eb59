"""Rebuild the demo pack in ``demo/templates`` from the public data sets:
memegen's templates (MIT) and ImgFlip575K captions.

    python manage.py build_demo_pack --memegen DIR --imgflip DIR --mapping CSV
"""

import csv
import io
import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from PIL import Image

from generation.images import encode_image, load_image
from generation.moderation import refusal

DEMO_KEYS = [
    "buzz", "ds", "aag", "wonka", "grumpycat", "yuno", "officespace", "cmm", "tenguy", "facepalm",
    "morpheus", "sk", "cb", "success", "harold", "rollsafe", "spongebob", "disastergirl", "drake",
    "woman-cat",
]  # fmt: skip
DEMO_IMAGE_SIDE = 600  # pixels: the feed shows memes at most 800 wide; the pack stays small
EXAMPLES_PER_TEMPLATE = 5


class Command(BaseCommand):
    help = "Rebuild demo/templates from memegen's templates and ImgFlip575K captions."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--memegen", type=Path, required=True, help="memegen templates folder")
        parser.add_argument(
            "--imgflip", type=Path, required=True, help="ImgFlip575K folder (memes/, templates/)"
        )
        parser.add_argument("--mapping", type=Path, required=True, help="imgflip-to-memegen.csv")
        parser.add_argument("--out", type=Path, default=settings.BASE_DIR / "demo" / "templates")

    def handle(self, *args: Any, **options: Any) -> None:
        with options["mapping"].open(encoding="utf-8") as handle:
            slugs = {row["memegen_key"]: row["imgflip_slug"] for row in csv.DictReader(handle)}
        for key in DEMO_KEYS:
            if key not in slugs:
                raise CommandError(f"{key} is not in the mapping")
            write_demo_template(key, slugs[key], options["memegen"], options["imgflip"], options["out"])
            self.stdout.write(f"{key} ← {slugs[key]}")


def write_demo_template(key: str, slug: str, memegen: Path, imgflip: Path, out: Path) -> None:
    source = memegen / key
    config = yaml.safe_load((source / "config.yml").read_text(encoding="utf-8"))
    info = json.loads((imgflip / "templates" / f"{slug}.json").read_text(encoding="utf-8"))
    config["model_key"] = slug
    names = (n.strip() for n in info.get("alternative_names", "").split(","))
    config["alternative_names"] = [n for n in names if n and refusal(n) is None]
    config["examples"] = top_captions(imgflip / "memes" / f"{slug}.json", len(config["text"]))
    config["credit"] = "Template layout: memegen (MIT). Captions: ImgFlip575K."
    target = out / key
    target.mkdir(parents=True, exist_ok=True)
    image_path = next(source.glob("default.*"))
    image = load_image(image_path.read_bytes(), image_path.name).image
    image.thumbnail((DEMO_IMAGE_SIDE, DEMO_IMAGE_SIDE), Image.Resampling.LANCZOS)
    (target / "default.jpg").write_bytes(encode_image(image, "JPEG", quality=82))
    with io.StringIO() as text:
        yaml.safe_dump(config, text, sort_keys=False, allow_unicode=True)
        (target / "config.yml").write_text(text.getvalue(), encoding="utf-8")


def top_captions(path: Path, box_count: int) -> list[list[str]]:
    """The most up-voted captions that fill exactly the template's boxes and may be shown."""
    memes = json.loads(path.read_text(encoding="utf-8"))
    memes.sort(key=lambda meme: -votes(meme))
    chosen: list[list[str]] = []
    for meme in memes:
        boxes = [" ".join(box.split()) for box in meme.get("boxes", [])]
        fits = len(boxes) == box_count and all(0 < len(box) <= 60 and box.isascii() for box in boxes)
        if fits and refusal(" | ".join(boxes)) is None:
            chosen.append(boxes)
        if len(chosen) == EXAMPLES_PER_TEMPLATE:
            break
    return chosen


def votes(meme: dict[str, Any]) -> int:
    raw = str(meme.get("metadata", {}).get("img-votes", "0")).replace(",", "")
    return int(raw) if raw.isdigit() else 0
