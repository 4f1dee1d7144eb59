"""Render cases for the fit and mark checks (memegen templates, each case's caption lines
cut to the template's boxes, the arguments that name them), and the memegen template reader
every rendering benchmark uses."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from PIL import Image

from generation.layout import TextBox, memegen_boxes
from generation.render import load_template


@dataclass
class RenderCase:
    number: int  # position in the cases file
    key: str  # memegen template key
    template: Image.Image  # scaled to the width asked for
    boxes: list[TextBox]
    texts: list[str]  # the case's lines, one per box at most


def add_case_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--templates", required=True, help="memegen templates folder (<key>/config.yml)")
    parser.add_argument("--cases", required=True, help="render-cases.json")
    parser.add_argument("--width", type=int, default=800, help="output width in pixels")
    parser.add_argument("--limit", type=int, default=None, help="only the first N cases")


def render_cases(args: argparse.Namespace) -> Iterator[RenderCase]:
    cases: list[dict[str, Any]] = json.loads(Path(args.cases).read_text(encoding="utf-8"))
    for number, case in enumerate(cases[: args.limit]):
        image_path, boxes = template_files(Path(args.templates), case["memegen_key"])
        template = load_template(image_path, args.width)
        yield RenderCase(number, case["memegen_key"], template, boxes, case["lines"][: len(boxes)])


def template_files(templates: Path, key: str) -> tuple[Path, list[TextBox]]:
    folder = templates / key
    image = next(path for path in sorted(folder.glob("default.*")))
    return image, memegen_boxes(
        yaml.safe_load((folder / "config.yml").read_text(encoding="utf-8")).get("text"), lenient_styles=True
    )
