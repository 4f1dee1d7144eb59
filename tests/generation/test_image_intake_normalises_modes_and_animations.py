"""Accepted images come out RGB, still and upright, with a note of what changed:
the renderer never sees a palette, an alpha channel, CMYK, 16-bit grey or an animation."""

import io

import numpy as np
from PIL import Image

from generation.images import load_image


def encoded(image: Image.Image, image_format: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, image_format, **options)
    return buffer.getvalue()


def rgb(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    pixel = image.getpixel(xy)
    assert isinstance(pixel, tuple)
    return pixel


def test_cmyk_jpeg_becomes_rgb() -> None:
    loaded = load_image(encoded(Image.new("CMYK", (100, 80), (0, 255, 255, 0)), "JPEG"), "print.jpg")
    assert loaded.image.mode == "RGB"
    red, green, blue = rgb(loaded.image, (50, 40))
    assert red > 200 and green < 60 and blue < 60
    assert "CMYK converted to RGB" in loaded.notes


def test_transparent_png_is_flattened_onto_white() -> None:
    image = Image.new("RGBA", (100, 80), (255, 0, 0, 0))
    image.paste((0, 0, 255, 255), (0, 0, 50, 80))
    loaded = load_image(encoded(image, "PNG"), "sticker.png")
    assert loaded.image.mode == "RGB"
    assert loaded.image.getpixel((25, 40)) == (0, 0, 255)
    assert loaded.image.getpixel((75, 40)) == (255, 255, 255)
    assert "transparency flattened onto white" in loaded.notes


def test_palette_image_with_a_transparent_colour_is_flattened_too() -> None:
    image = Image.new("P", (100, 80), 1)
    image.putpalette([0, 0, 0, 255, 0, 0] + [0] * 762)
    loaded = load_image(encoded(image, "GIF", transparency=1), "clip.gif")
    assert loaded.image.mode == "RGB" and loaded.image.getpixel((10, 10)) == (255, 255, 255)


def test_plain_palette_image_keeps_its_colours() -> None:
    image = Image.new("RGB", (100, 80), (10, 200, 30)).quantize(8)
    loaded = load_image(encoded(image, "PNG"), "flat.png")
    assert loaded.image.mode == "RGB" and loaded.image.getpixel((50, 40)) == (10, 200, 30)


def test_animated_gif_keeps_its_first_frame() -> None:
    first, second = Image.new("RGB", (100, 80), (255, 0, 0)), Image.new("RGB", (100, 80), (0, 0, 255))
    loaded = load_image(encoded(first, "GIF", save_all=True, append_images=[second]), "dance.gif")
    red, _, blue = rgb(loaded.image, (50, 40))
    assert red > 200 and blue < 60
    assert "animated image: kept the first frame" in loaded.notes


def test_sixteen_bit_grey_png_keeps_its_tones_instead_of_turning_white() -> None:
    # Pillow's own I;16 → RGB conversion clips every level above 255 to white.
    ramp = np.linspace(0, 65535, 120 * 90).reshape(90, 120).astype(np.uint16)
    loaded = load_image(encoded(Image.fromarray(ramp), "PNG"), "scan.png")
    grey = np.asarray(loaded.image.convert("L"))
    assert loaded.image.mode == "RGB"
    assert grey[0, 0] < 5 and grey[-1, -1] > 250 and 100 < grey.mean() < 155


def test_exif_rotated_photo_is_turned_upright() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotate 90° clockwise to view
    photo = encoded(Image.new("RGB", (120, 90), "gray"), "JPEG", exif=exif.tobytes())
    loaded = load_image(photo, "phone.jpg")
    assert loaded.image.size == (90, 120)


def test_large_image_is_downscaled_to_the_side_limit() -> None:
    loaded = load_image(encoded(Image.new("RGB", (3000, 1500), "gray"), "PNG"), "big.png")
    assert loaded.image.size == (2000, 1000) and loaded.original_size == (3000, 1500)
