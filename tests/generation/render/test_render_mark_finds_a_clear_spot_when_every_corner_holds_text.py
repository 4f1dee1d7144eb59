"""A template whose four corners all hold text still gets its "AI-generated"
mark over no caption letter: at a clear spot along the picture's edges."""

import numpy as np

from generation.layout import TextBox
from generation.render import render_meme, resized_template
from tests.golden.templates import template

FOUR_CORNERS = [
    TextBox(anchor_x=0.0, anchor_y=0.0, scale_x=0.5, scale_y=0.25),
    TextBox(anchor_x=0.5, anchor_y=0.0, scale_x=0.5, scale_y=0.25),
    TextBox(anchor_x=0.0, anchor_y=0.75, scale_x=0.5, scale_y=0.25),
    TextBox(anchor_x=0.5, anchor_y=0.75, scale_x=0.5, scale_y=0.25),
]
CAPTIONS = ["top left words", "top right words", "bottom left words", "bottom right words"]


def test_the_mark_covers_no_caption_pixel_and_stays_on_the_picture() -> None:
    image, _ = template("gone")
    marked = render_meme(image, FOUR_CORNERS, CAPTIONS)
    plain = render_meme(image, FOUR_CORNERS, CAPTIONS, mark_text="")
    bare = np.asarray(resized_template(image, 800))
    caption_ink = (np.asarray(plain.image) != bare).any(axis=-1)  # (H, W): fill and outline
    assert marked.mark_box is not None
    x, y, width, height = marked.mark_box
    assert not caption_ink[y : y + height, x : x + width].any()
    assert marked.band == 0 and marked.image.size == plain.image.size
    # On the picture's right edge, between the top and the bottom captions.
    assert x + width > 0.9 * marked.image.width
    assert 0.25 * marked.image.height < y < 0.75 * marked.image.height
