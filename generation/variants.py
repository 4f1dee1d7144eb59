"""Storing a meme's lighter copies (generation.render.variants) beside its image.

The renderer stores them as it stores the image, from the pixels it just drew;
``make_image_variants`` stores them for memes made before, from the stored
image. Both only add files: a meme's image is never rewritten, and a copy is
written whole under its final name (on local disk: a temporary name, then an
atomic rename), so a reader, a crash or a second run at the same time never
sees half a file. A row lists a copy only once its file is stored.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path

from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, default_storage
from PIL import Image

from generation.images import ImageRejected, load_image
from generation.models import GeneratedMeme
from generation.outlet import memes
from generation.render.variants import encode_variant, variant_name, variant_widths


class OriginalUnusable(Exception):
    """A meme's stored image is missing or cannot be decoded; the message names it."""


def store_variants(image_name: str, image: Image.Image, original_bytes: int) -> list[int]:
    """Store the copies of the meme image ``image_name`` (pixels ``image``,
    ``original_bytes`` long) that are not stored yet; returns the widths it has.

    A full-width copy that is not smaller than the image itself is not kept:
    pages then offer the image at that width."""
    widths = []
    for width in variant_widths(image.width):
        name = variant_name(image_name, width)
        if not default_storage.exists(name):
            data = encode_variant(image, width)
            if width == image.width and len(data) >= original_bytes:
                continue
            save_whole(name, data)
        widths.append(width)
    return widths


def save_whole(name: str, data: bytes) -> None:
    """Store ``data`` under exactly ``name``, appearing all at once. Copies are
    named by their inputs, so whoever stores one first stored the same bytes."""
    if isinstance(default_storage, FileSystemStorage):
        partial = default_storage.save(f"{name}.partial-{uuid.uuid4().hex}", ContentFile(data))
        Path(default_storage.path(partial)).replace(default_storage.path(name))
        return
    saved = default_storage.save(name, ContentFile(data))
    if saved != name:  # stored meanwhile by another process: Django chose a free name for ours
        default_storage.delete(saved)


def stored_image(image_name: str) -> tuple[Image.Image, int]:
    """A meme's stored image, decoded, and its length in bytes."""
    try:
        with default_storage.open(image_name, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise OriginalUnusable(f"its image {image_name} is missing ({error.strerror or error})") from None
    try:
        return load_image(data, image_name).image, len(data)
    except ImageRejected as error:
        raise OriginalUnusable(f"its image cannot be read: {error}") from None


@dataclass(frozen=True)
class Backfill:
    made: int  # memes whose copies were stored (or found) and listed on the row
    failed: dict[int, str]  # meme id → why its copies could not be made


def memes_without_variants(every: bool = False) -> list[int]:
    """Ids of memes with an image whose copies were never looked for (all with
    an image when ``every``: a re-check that restores lost files)."""
    rows = memes().exclude(image="")
    if not every:
        rows = rows.filter(image_variants__isnull=True)
    return list(rows.order_by("pk").values_list("pk", flat=True))


def make_variants(meme_ids: list[int]) -> Backfill:
    """Store each meme's missing copies from its stored image and list them on its row."""
    made, failed = 0, {}
    for meme in memes().filter(pk__in=meme_ids).exclude(image="").only("pk", "image").order_by("pk"):
        try:
            made += make_variants_of(meme)
        except OriginalUnusable as error:
            failed[meme.pk] = str(error)
    return Backfill(made, failed)


def make_variants_of(meme: GeneratedMeme) -> int:
    """1 once the meme's row lists its stored copies; 0 if its image changed meanwhile."""
    image_name = str(meme.image.name)
    image, original_bytes = stored_image(image_name)
    widths = store_variants(image_name, image, original_bytes)
    return memes().filter(pk=meme.pk, image=image_name).update(image_variants=widths)
