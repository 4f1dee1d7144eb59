"""More texts than boxes is a clear ValueError; fewer leaves the last boxes
blank; an unknown mark position or a tiny width is refused by name."""

import pytest

from generation.render import render_meme
from tests.golden.templates import template


def test_more_texts_than_boxes_is_an_error_that_counts_both() -> None:
    image, boxes = template("drake")
    with pytest.raises(ValueError, match="3 texts for a template with 2 text boxes"):
        render_meme(image, list(boxes), ["one", "two", "three"])


def test_fewer_texts_leave_the_last_boxes_blank() -> None:
    image, boxes = template("pigeon")
    rendered = render_meme(image, list(boxes), ["only the first"])
    assert rendered.font_sizes[0] > 0 and rendered.font_sizes[1:] == [0, 0]
    assert rendered.lines[1:] == ((), ())


def test_blank_and_whitespace_texts_draw_nothing() -> None:
    image, boxes = template("drake")
    assert render_meme(image, list(boxes), ["", "   "]).font_sizes == [0, 0]


def test_an_unknown_mark_position_is_refused() -> None:
    image, boxes = template("drake")
    with pytest.raises(ValueError, match="mark_position must be one of"):
        render_meme(image, list(boxes), ["a"], mark_position="middle")


def test_a_width_too_small_for_captions_is_refused() -> None:
    image, boxes = template("drake")
    with pytest.raises(ValueError, match="at least 200 pixels"):
        render_meme(image, list(boxes), ["a"], width=50)
