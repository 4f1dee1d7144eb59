"""No glyph, outline included, is drawn outside its box: checked on real pixels
(each box's lines drawn alone on a transparent canvas with a wide margin) for
awkward captions on every golden template, rotated boxes included."""

import pytest

from generation.render import Laid, contains, drawn_ink, layout_boxes, render_meme
from tests.golden.templates import CAPTIONS, template

AWKWARD = [
    "A",
    "Supercalifragilisticexpialidociousnessandthenmoreletterswithoutanyspaces",
    "when you finally understand the recursion but then you realise you have to explain it to someone "
    "else in the standup tomorrow morning and the whole team is listening and the manager is there too",
    "Wait… what? ¿Qué? ¡Sí! «Ça va?» — «Oui.» Ünïcödé ÅÉÎÕÜ ñ ç ß",
    "gjpqy descenders gjpqy",
    "!!!!!!!!!!!!!!!!!!!!!!!!!!",
]


def ink_outside(item: Laid) -> bool:
    ink = drawn_ink(item)
    assert ink is not None
    return not contains((0, 0, *item.rect[2:]), ink)


@pytest.mark.parametrize("key", sorted(CAPTIONS))
@pytest.mark.parametrize("width", [400, 800])
def test_awkward_captions_stay_inside_every_box(key: str, width: int) -> None:
    image, boxes = template(key)
    size = (width, round(image.height * width / image.width))
    for caption in AWKWARD:
        laid = layout_boxes(size, boxes, [caption] * len(boxes))
        assert not [item.box for item in laid if item.fit and ink_outside(item)], caption


@pytest.mark.parametrize("key", sorted(CAPTIONS))
def test_the_renderer_counts_no_overflow_either(key: str) -> None:
    image, boxes = template(key)
    for caption in AWKWARD:
        assert render_meme(image, list(boxes), [caption] * len(boxes)).overflow == 0
