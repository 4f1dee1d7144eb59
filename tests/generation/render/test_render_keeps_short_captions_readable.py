"""A caption under 100 characters is never drawn below the floor (22 px at 800
px wide): a label box too small for it grows about its centre, inside the
image and clear of the other boxes, just enough to reach the floor."""

from generation.render import layout_boxes, readable_size, render_meme
from generation.render.boxes import READABLE_SIZE_AT_800
from generation.render.geometry import overlaps
from tests.golden.templates import template

PIGEON_LABEL = "a tiny label box with a caption far too long for it, almost a tweet"  # 67 characters


def test_a_long_label_in_a_small_box_still_reaches_the_floor() -> None:
    image, boxes = template("pigeon")
    rendered = render_meme(image, list(boxes), ["me", PIGEON_LABEL, "is this a bug?"])
    assert min(size for size in rendered.font_sizes if size) >= READABLE_SIZE_AT_800
    assert rendered.grown_boxes == 1 and rendered.overflow == 0


def test_a_grown_box_stays_inside_the_image_and_clear_of_the_others() -> None:
    image, boxes = template("pigeon")
    size = (800, round(image.height * 800 / image.width))
    laid = layout_boxes(size, boxes, ["me", PIGEON_LABEL, "is this a bug?"])
    grown = [item for item in laid if item.grown]
    assert len(grown) == 1
    left, top, width, height = grown[0].rect
    assert left >= 0 and top >= 0 and left + width <= size[0] and top + height <= size[1]
    others = [item.rect for item in laid if item is not grown[0]]
    assert not any(overlaps(grown[0].rect, other) for other in others)


def test_boxes_with_room_are_never_grown() -> None:
    image, boxes = template("drake")
    assert render_meme(image, list(boxes), ["short", "captions"]).grown_boxes == 0


def test_the_floor_scales_with_the_output_width() -> None:
    assert readable_size(800) == READABLE_SIZE_AT_800 == 22
    assert readable_size(400) == 11 and readable_size(1600) == 44
