"""Image intake: every image that enters the site (admin upload, importer,
captioned meme) passes ``load_image`` and is re-encoded by ``encode_image``.

Hostile files are rejected with a message a person can act on; accepted ones
are normalised to RGB, still, within size limits, so the renderer never sees
a palette, an alpha channel, CMYK or an animation.
"""

from __future__ import annotations

import io
import struct
import warnings
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

# Formats we accept. SVG is not an image format Pillow reads, so it falls out
# here with a clear "not a supported image" message.
ACCEPTED_FORMATS = ("JPEG", "PNG", "WEBP", "GIF", "BMP")
MAX_BYTES = 10 * 1024 * 1024
# Largest pixel count we decode (about 40 megapixels); Pillow's own default
# bomb limit is ~89 MP, far more memory than a meme template needs.
MAX_PIXELS = 40_000_000
MAX_SIDE = 2000  # pixels: templates are stored no wider or taller than this
MIN_SIDE = 50  # pixels: smaller is no template anyone can caption
MAX_ASPECT = 5.0  # width / height (or the inverse): beyond this boxes are slivers

Image.MAX_IMAGE_PIXELS = MAX_PIXELS


class ImageRejected(ValueError):
    """The file is not an image we can use; the message says why."""


@dataclass(frozen=True)
class NormalisedImage:
    image: Image.Image
    original_format: str
    original_size: tuple[int, int]
    notes: tuple[str, ...]  # the normalisations applied, for the admin's message


def load_image(data: bytes, name: str = "image") -> NormalisedImage:
    """Decode, check and normalise an uploaded image (RGB, ≤ MAX_SIDE, upright)."""
    check_size(len(data), name)
    image, image_format = _decode(data, name)
    original_size = image.size
    _check_dimensions(image, name)
    notes: list[str] = []
    try:
        # Probing for a second frame, seeking back and reading EXIF all parse
        # more of the file than load() did: a file truncated after its first
        # frame or with a damaged EXIF block fails here, not in _decode.
        if getattr(image, "is_animated", False):
            notes.append("animated image: kept the first frame")
        image.seek(0)
        image = ImageOps.exif_transpose(image) or image
        image = _to_rgb(image, notes)
    except (OSError, SyntaxError, ValueError, IndexError, EOFError, struct.error) as error:
        reason = str(error) or type(error).__name__
        raise ImageRejected(f"{name}: the image is damaged or truncated ({reason})") from None
    if max(image.size) > MAX_SIDE:
        image.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
        notes.append(f"downscaled to {image.width}×{image.height}")
    return NormalisedImage(image, image_format, original_size, tuple(notes))


def check_size(size: int, name: str = "image") -> None:
    """Refuse an empty or oversized file by its size alone, before it is read."""
    if not size:
        raise ImageRejected(f"{name}: the file is empty")
    if size > MAX_BYTES:
        raise ImageRejected(f"{name}: the file is {size / 1e6:.1f} MB; the limit is {MAX_BYTES / 1e6:.0f} MB")


def encode_image(image: Image.Image, image_format: str = "JPEG", quality: int = 88) -> bytes:
    """Re-encode deterministically (no metadata, fixed settings)."""
    # Pillow writes some metadata it finds on the image even unasked (a JPEG
    # comment, a PNG colour profile): an upload's comment would reach storage
    # intact, and one over 64 kB makes the JPEG encoder raise.
    image = image.copy()
    image.info = {}
    buffer = io.BytesIO()
    if image_format.upper() == "PNG":
        image.save(buffer, "PNG", optimize=True)
    elif image_format.upper() == "WEBP":
        image.save(buffer, "WEBP", quality=quality, method=4)
    else:
        image.save(buffer, "JPEG", quality=quality, optimize=True, progressive=True)
    return buffer.getvalue()


def _decode(data: bytes, name: str) -> tuple[Image.Image, str]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=ACCEPTED_FORMATS)
            image_format = image.format or "unknown"
            _check_dimensions(image, name)  # before decoding any pixel
            image.load()
    except ImageRejected:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageRejected(
            f"{name}: the image is too large to decode safely (over {MAX_PIXELS:,} pixels)"
        ) from None
    except UnidentifiedImageError:
        raise ImageRejected(
            f"{name}: not a supported image (use JPEG, PNG, WebP, GIF or BMP; SVG is not accepted)"
        ) from None
    except (OSError, SyntaxError, ValueError) as error:
        raise ImageRejected(f"{name}: the image is damaged or truncated ({error})") from None
    return image, image_format


def _check_dimensions(image: Image.Image, name: str) -> None:
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise ImageRejected(f"{name}: {width}×{height} is too large (the limit is {MAX_PIXELS:,} pixels)")
    if min(width, height) < MIN_SIDE:
        raise ImageRejected(f"{name}: {width}×{height} is too small (at least {MIN_SIDE} pixels a side)")
    if max(width / height, height / width) > MAX_ASPECT:
        raise ImageRejected(f"{name}: {width}×{height} is too narrow (aspect ratio over {MAX_ASPECT:g}:1)")


def _to_rgb(image: Image.Image, notes: list[str]) -> Image.Image:
    if image.mode == "RGB":
        return image
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        # Transparent areas become white, as a browser shows them on a light page.
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, "white")
        background.paste(rgba, mask=rgba.getchannel("A"))
        notes.append("transparency flattened onto white")
        return background
    if image.mode == "CMYK":
        notes.append("CMYK converted to RGB")
    if image.mode in ("I", "I;16", "I;16L", "I;16B", "F"):
        return _deep_grey_to_rgb(image, notes)
    return image.convert("RGB")


def _deep_grey_to_rgb(image: Image.Image, notes: list[str]) -> Image.Image:
    """16-bit (or 32-bit) grey to 8-bit RGB. Pillow's own conversion clips every
    level above 255 to white, which turns a 16-bit PNG into a blank white page."""
    levels = np.asarray(image, dtype=np.float64)
    top = 65535.0 if levels.max(initial=0) > 255 else 255.0
    grey = np.clip(levels / top * 255.0 + 0.5, 0, 255).astype(np.uint8)
    notes.append(f"{image.mode} grey scaled to 8 bits")
    return Image.fromarray(grey, "L").convert("RGB")
