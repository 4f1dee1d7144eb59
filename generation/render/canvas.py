"""The template image as the canvas: the output size, a fresh copy at that
size to draw on, template files decoded once, and a band added below."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image

MIN_WIDTH = 200  # pixels: narrower output leaves no room for a caption
MAX_WIDTH = 1600  # pixels: the cap on output width (the feed shows 800)


def output_size(template_size: tuple[int, int], width: int) -> tuple[int, int]:
    if width < MIN_WIDTH:
        raise ValueError(f"width must be at least {MIN_WIDTH} pixels, not {width}")
    width = min(width, MAX_WIDTH)
    return width, max(1, round(template_size[1] * width / template_size[0]))


def resized_template(template_image: Image.Image, width: int) -> Image.Image:
    """A fresh RGB copy of the template at ``width`` pixels (the caller's image is never drawn on)."""
    size = output_size(template_image.size, width)
    image = template_image.convert("RGB") if template_image.mode != "RGB" else template_image
    if image.size == size:
        return image.copy()
    return image.resize(size, Image.Resampling.LANCZOS)


def with_band(image: Image.Image, height: int, color: tuple[int, int, int]) -> Image.Image:
    """``image`` over a plain strip ``height`` pixels tall: room for what must
    not go on the picture. The picture keeps its coordinates."""
    taller = Image.new("RGB", (image.width, image.height + height), color)
    taller.paste(image, (0, 0))
    return taller


@lru_cache(maxsize=16)
def load_template(path: Path, width: int = 800) -> Image.Image:
    """A template file decoded and resized once; ``render_meme`` copies it before drawing."""
    with Image.open(path) as image:
        return resized_template(image, width)
