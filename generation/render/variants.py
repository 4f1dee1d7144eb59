"""Lighter copies of a rendered meme for pages: WebP at full width and at the
feed column's width, named from the meme's own file so a retry or a re-run
finds them, and so the media view knows which meme a copy belongs to.

The full-width JPEG stays the meme's image (downloads, share previews, and any
browser without WebP); pages offer these through ``<picture>``/``srcset`` and the
browser picks by the width it draws at times its pixel density.
"""

from __future__ import annotations

import io
import re
from pathlib import PurePosixPath

from PIL import Image

from generation.render.encode import WEBP_QUALITY

VARIANT_FORMAT = "webp"
VARIANT_CONTENT_TYPE = "image/webp"
# The feed's column is 574 CSS px wide on a desktop (main 38rem less padding
# and border), and a landing card ~316 px: a 600 px copy is what a desktop at
# 1× picks in both. A phone (372 CSS px at 3×) picks the full width.
SMALL_WIDTH = 600
# The quality of the renderer's own WebP (encode.WEBP_QUALITY). Method 0 encodes an 800×627
# meme in ~16 ms where method 2 takes ~22 ms for ~15% fewer bytes (bench/render.py,
# docs/rendering.md): copies are made for every meme, most of which few people see.
VARIANT_QUALITY = WEBP_QUALITY
VARIANT_METHOD = 0
# Bicubic: sharper than bilinear on outlined caption text, and cheaper than Lanczos.
RESAMPLE = Image.Resampling.BICUBIC

_VARIANT_NAME = re.compile(r"^(?P<stem>.+)\.(?P<width>[1-9][0-9]{0,4})w\." + VARIANT_FORMAT + "$")
# The extensions a meme's own image may have (generation.render.encode's formats).
IMAGE_SUFFIXES = (".jpg", ".webp")


def variant_widths(width: int) -> list[int]:
    """The widths of the copies a meme ``width`` px wide gets, smallest first."""
    return [SMALL_WIDTH, width] if width > SMALL_WIDTH else [width]


def variant_name(image_name: str, width: int) -> str:
    """``memes/ab/KEY.jpg`` → ``memes/ab/KEY.600w.webp``: the image's own name (a
    hash of the render's inputs) with the copy's width and format."""
    stem = PurePosixPath(image_name).with_suffix("")
    return f"{stem}.{width}w.{VARIANT_FORMAT}"


def images_behind(name: str) -> list[str]:
    """The names the meme image a copy ``name`` was made from may have; ``[]``
    when ``name`` is not a copy's name."""
    match = _VARIANT_NAME.match(name)
    if match is None:
        return []
    return [match["stem"] + suffix for suffix in IMAGE_SUFFIXES]


def variant_height(width: int, height: int, variant_width: int) -> int:
    """The copy's height: the image's aspect ratio, rounded to whole pixels."""
    return max(1, round(height * variant_width / width))


def encode_variant(image: Image.Image, width: int) -> bytes:
    """The image at ``width`` px wide as WebP; same pixels give the same bytes."""
    if width != image.width:
        image = image.resize((width, variant_height(image.width, image.height, width)), RESAMPLE)
    buffer = io.BytesIO()
    image.save(buffer, "WEBP", quality=VARIANT_QUALITY, method=VARIANT_METHOD)
    return buffer.getvalue()
