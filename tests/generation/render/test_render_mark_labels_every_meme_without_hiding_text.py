"""Every meme carries a small "AI-generated" mark in the corner the template
asks for, moved to another corner when it would cover the caption."""

import numpy as np
import pytest

from generation.layout import TextBox
from generation.render import MARK_POSITIONS, mark_position_for, render_meme
from generation.render.geometry import overlaps
from tests.golden.templates import template

TOP_ONLY = [TextBox(anchor_y=0.0, scale_y=0.2)]
FULL_WIDTH_BOTTOM = [TextBox(anchor_y=0.8, scale_y=0.2)]


@pytest.mark.parametrize("position", MARK_POSITIONS)
def test_the_mark_goes_where_the_template_asks_when_that_is_clear(position: str) -> None:
    image, _ = template("gone")
    rendered = render_meme(
        image, [TextBox(anchor_x=0.3, anchor_y=0.4, scale_x=0.4)], ["hi"], mark_position=position
    )
    assert rendered.mark_box is not None
    x, y, width, height = rendered.mark_box
    right = x + width > rendered.image.width / 2
    bottom = y + height > rendered.image.height / 2
    assert position == f"{'bottom' if bottom else 'top'}-{'right' if right else 'left'}"
    assert width <= 0.2 * rendered.image.width  # small: about 15% of the width


def test_the_mark_moves_off_a_caption_that_fills_its_corner() -> None:
    image, _ = template("gone")
    caption = "A CAPTION LONG ENOUGH TO REACH BOTH CORNERS OF THE BOTTOM BOX"
    rendered = render_meme(image, FULL_WIDTH_BOTTOM, [caption], mark_position="bottom-right")
    assert rendered.mark_box is not None and rendered.mark_box[1] < rendered.image.height / 2


def test_the_mark_is_drawn_and_changes_pixels_in_its_corner() -> None:
    image, _ = template("gone")
    marked = render_meme(image, TOP_ONLY, ["hi"])
    plain = render_meme(image, TOP_ONLY, ["hi"], mark_text="")
    assert marked.mark_box is not None and plain.mark_box is None
    x, y, width, height = marked.mark_box
    difference = np.asarray(marked.image, dtype=int) - np.asarray(plain.image, dtype=int)
    assert np.abs(difference[y : y + height, x : x + width]).sum() > 0
    outside = difference.copy()
    outside[y : y + height, x : x + width] = 0
    assert not outside.any()


def test_importers_get_the_corner_that_hides_no_box() -> None:
    assert mark_position_for([TextBox(anchor_y=0.0)]) == "bottom-right"
    assert mark_position_for([TextBox(anchor_y=0.8)]) == "top-right"
    # Every corner under a box: keep the default; rendering still moves it off text.
    assert mark_position_for([TextBox(anchor_y=0.0), TextBox(anchor_y=0.8)]) == "bottom-right"
    assert not overlaps((0, 0, 10, 10), (10, 0, 5, 5))
