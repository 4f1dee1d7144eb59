"""Uploads that are not images we can use are refused with a message a person
can act on, never a traceback: empty, truncated, bombs, impostors and SVG."""

import io
import struct
import zlib

import pytest
from PIL import Image

from generation.images import MAX_BYTES, ImageRejected, load_image


def encoded(image: Image.Image, image_format: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, image_format, **options)
    return buffer.getvalue()


def striped(width: int = 120, height: int = 90) -> Image.Image:
    image = Image.new("RGB", (width, height), (200, 30, 40))
    for x in range(0, width, 7):
        image.paste((x * 2 % 256, 80, 160), (x, 0, x + 3, height))
    return image


def png_header_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims a huge size but carries almost no data."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    ihdr = struct.pack(">I", len(header)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    data = zlib.compress(b"\x00" * 64)
    idat = struct.pack(">I", len(data)) + b"IDAT" + data + struct.pack(">I", zlib.crc32(b"IDAT" + data))
    return b"\x89PNG\r\n\x1a\n" + ihdr + idat


def test_an_empty_file_is_refused() -> None:
    with pytest.raises(ImageRejected, match="empty"):
        load_image(b"", "blank.png")


def test_a_file_over_the_size_limit_is_refused_before_decoding() -> None:
    with pytest.raises(ImageRejected, match="limit"):
        load_image(b"\x89PNG" + b"\x00" * MAX_BYTES, "huge.png")


def test_a_decompression_bomb_is_refused_from_its_header() -> None:
    with pytest.raises(ImageRejected, match="too large"):
        load_image(png_header_claiming(50_000, 50_000), "bomb.png")


def test_a_text_file_named_like_an_image_is_refused() -> None:
    with pytest.raises(ImageRejected, match="not a supported image"):
        load_image(b"hello, I am definitely a JPEG\n" * 20, "photo.jpg")


def test_an_svg_is_refused_with_a_hint_at_the_formats_we_take() -> None:
    svg = (
        b'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
        b'<rect width="100" height="100"/></svg>'
    )
    with pytest.raises(ImageRejected, match="SVG is not accepted"):
        load_image(svg, "logo.svg")


@pytest.mark.parametrize("image_format", ["PNG", "JPEG", "GIF", "WEBP", "BMP", "animated GIF"])
def test_a_file_truncated_anywhere_is_refused_or_decoded_never_crashes(image_format: str) -> None:
    if image_format == "animated GIF":
        data = encoded(striped(), "GIF", save_all=True, append_images=[striped().rotate(90)])
    else:
        data = encoded(striped(), image_format)
    for length in range(1, len(data), max(1, len(data) // 150)):
        try:
            load_image(data[:length], "cut")
        except ImageRejected as error:
            assert str(error).startswith("cut: ")


def test_a_truncated_jpeg_says_it_is_damaged() -> None:
    data = encoded(striped(400, 300), "JPEG", quality=90)
    with pytest.raises(ImageRejected, match="damaged or truncated"):
        load_image(data[: len(data) // 2], "half.jpg")
