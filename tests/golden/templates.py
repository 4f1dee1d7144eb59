"""A dozen memegen templates kept with the tests (images downscaled to 600 px)
and the captions the golden images show."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml
from PIL import Image

from generation.layout import TextBox, memegen_boxes

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
EXPECTED = HERE / "expected"

# One caption per template, chosen to exercise a behaviour each.
CAPTIONS: dict[str, list[str]] = {
    "drake": ["writing tests after the release", "writing tests first"],
    "gone": ["my weekend plans", "aaaand they're gone"],
    "pigeon": ["me", "a tiny label box with a caption far too long for it", "is this a bug?"],
    "handshake": ["rotated boxes", "turned the other way", "both agree"],
    "chair": ["let's try", "no!", "it's fine", "it isn't", "ok", "FINE"],
    "balloon": ["me", "the deadline", "a box that hangs over the edge"],
    "exit": ["Curly “quotes”, café, naïve", "Ελληνικά too", "me"],
    "cmm": ["every caption fits its box"],
    "ds": ["tabs", "spaces", "me, choosing"],
    "spongebob": ["this is mocking text", "written in alternating case"],
    "seagull": ["quiet text", "LOUD TEXT!!!"],
    "success": ["all tests passed", "on the first try 🎉"],
}


@lru_cache(maxsize=16)
def template(key: str) -> tuple[Image.Image, tuple[TextBox, ...]]:
    """The template's image (RGB) and boxes."""
    folder = TEMPLATES / key
    config = yaml.safe_load((folder / "config.yml").read_text(encoding="utf-8"))
    with Image.open(folder / "default.jpg") as image:
        return image.convert("RGB"), tuple(memegen_boxes(config.get("text"), lenient_styles=True))
