"""Images too small, too thin or too many pixels to make a template are refused
with their size in the message."""

import io

import pytest
from PIL import Image

from generation.images import ImageRejected, load_image


def png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("L", (width, height), 128).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.mark.parametrize(("width", "height"), [(1000, 100), (100, 1000), (2600, 500)])
def test_a_sliver_is_refused(width: int, height: int) -> None:
    with pytest.raises(ImageRejected, match=f"{width}×{height} is too narrow"):
        load_image(png(width, height), "sliver.png")


def test_a_thumbnail_is_refused() -> None:
    with pytest.raises(ImageRejected, match="too small"):
        load_image(png(40, 40), "icon.png")


def test_an_ordinary_wide_image_is_accepted() -> None:
    assert load_image(png(1000, 250), "banner.png").image.size == (1000, 250)
