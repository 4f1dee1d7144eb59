"""When the caption leaves no spot on the picture clear for the "AI-generated"
mark, a thin band is added below the picture and the mark goes there."""

import numpy as np
from PIL import Image

from generation.layout import TextBox
from generation.render import render_meme

WHOLE_PICTURE = [TextBox(anchor_x=0.0, anchor_y=0.0, scale_x=1.0, scale_y=1.0)]
CAPTION = ["a caption that fills its whole picture, edge to edge"]


def banner() -> Image.Image:
    return Image.new("RGB", (800, 200), (90, 120, 150))  # 4:1, so the caption fills it


def test_the_mark_is_on_a_band_under_the_untouched_picture() -> None:
    marked = render_meme(banner(), WHOLE_PICTURE, CAPTION)
    plain = render_meme(banner(), WHOLE_PICTURE, CAPTION, mark_text="")
    assert marked.mark_box is not None
    x, y, width, height = marked.mark_box
    assert y >= 200 and y + height <= marked.image.height and x + width <= 800
    assert 0 < marked.band <= 50  # pixels: thin
    assert marked.image.size == (800, 200 + marked.band)
    # The picture and its caption are exactly as without the mark.
    assert np.array_equal(np.asarray(marked.image)[:200], np.asarray(plain.image))
    assert plain.band == 0 and plain.image.size == (800, 200)


def test_the_mark_still_takes_a_spot_on_the_picture_when_one_is_clear() -> None:
    rendered = render_meme(banner(), [TextBox(anchor_x=0.0, anchor_y=0.0, scale_x=0.5)], ["hi"])
    assert rendered.band == 0 and rendered.image.size == (800, 200)
