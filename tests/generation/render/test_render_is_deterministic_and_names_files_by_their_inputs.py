"""The same inputs give the same bytes, and the output's name is a hash of
every input that decides those bytes, so a retried task finds its file."""

import io

import pytest
from PIL import Image

from generation.layout import TextBox
from generation.render import ImageFormat, encode_meme, render_key, render_meme
from tests.golden.templates import template

TEXTS = ["same inputs", "same bytes"]


@pytest.mark.parametrize("fmt", ["webp", "jpeg"])
def test_rendering_twice_gives_identical_bytes(fmt: ImageFormat) -> None:
    image, boxes = template("drake")
    first = encode_meme(render_meme(image, list(boxes), TEXTS).image, fmt)
    second = encode_meme(render_meme(image.copy(), list(boxes), list(TEXTS)).image, fmt)
    assert first == second
    assert Image.open(io.BytesIO(first)).format == fmt.upper()


def test_output_is_capped_in_width_and_small_enough_for_the_feed() -> None:
    image, boxes = template("drake")
    rendered = render_meme(image, list(boxes), TEXTS, width=5000).image
    assert rendered.width == 1600
    feed = render_meme(image, list(boxes), TEXTS).image
    assert feed.width == 800 and len(encode_meme(feed, "webp")) < 150_000


def test_the_key_changes_with_every_input_and_only_with_them() -> None:
    boxes = [TextBox(), TextBox(anchor_y=0.8)]
    base = ("a" * 64, boxes, TEXTS, 800, "webp", "bottom-right")
    key = render_key(*base)
    assert len(key) == 64 and key == render_key(*base)
    variants = [
        ("b" * 64, boxes, TEXTS, 800, "webp", "bottom-right"),
        ("a" * 64, [TextBox(), TextBox(anchor_y=0.7)], TEXTS, 800, "webp", "bottom-right"),
        ("a" * 64, boxes, ["same inputs", "other bytes"], 800, "webp", "bottom-right"),
        ("a" * 64, boxes, TEXTS, 640, "webp", "bottom-right"),
        ("a" * 64, boxes, TEXTS, 800, "jpeg", "bottom-right"),
        ("a" * 64, boxes, TEXTS, 800, "webp", "top-left"),
    ]
    assert len({render_key(*variant) for variant in variants} | {key}) == len(variants) + 1


def test_the_caller_s_template_image_is_never_drawn_on() -> None:
    image, boxes = template("gone")
    sized = image.resize((800, round(image.height * 800 / image.width)))
    before = sized.tobytes()
    render_meme(sized, list(boxes), TEXTS)
    assert sized.tobytes() == before
