import re

import pytest
from PIL import Image

from generation.layout import LayoutError, TextBox, apply_style, parse_boxes
from generation.render import render_meme


def test_a_memegen_box_parses_with_its_defaults() -> None:
    boxes = parse_boxes(
        [{"anchor_x": 0.1, "anchor_y": 0.7, "scale_x": 0.8, "scale_y": 0.3, "start": 0, "stop": 1}]
    )
    assert boxes == [TextBox(anchor_x=0.1, anchor_y=0.7, scale_x=0.8, scale_y=0.3)]


def test_font_aliases_map_to_shipped_faces() -> None:
    assert parse_boxes([{"font": "Impact"}])[0].font == "thick"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("not a list", "must be a list"),
        ([], "at least one"),
        ([{}] * 11, "at most 10"),
        (["box"], "Box 1: must be a mapping"),
        ([{"anchor_x": "left"}], "Box 1: anchor_x must be a number"),
        ([{"anchor_x": True}], "anchor_x must be a number"),
        ([{"anchor_x": float("nan")}], "finite"),
        ([{"anchor_x": -0.1}], "anchor_x must be a fraction"),
        ([{"scale_y": 0}], "scale_y must be a fraction"),
        ([{"anchor_y": 0.9, "scale_y": 0.3}], "reaches outside the image"),
        ([{"angle": 270}], "angle must be in degrees"),
        ([{"color": "blurple"}], "is not a colour"),
        # Numbers JSON and YAML read but a float cannot hold (OverflowError), and colours
        # Pillow reads but cannot draw (rgb(10^24,0,0): OverflowError at every render).
        ([{"anchor_x": 10**400}], "Box 1: anchor_x must be a finite number, not one of over 300 digits"),
        ([{}, {"angle": -(10**400)}], "Box 2: angle must be a finite number"),
        ([{"angle": 10**300}], "angle must be in degrees between -180 and 180, not 1e+300"),
        (
            [{"color": f"rgb({10**24},0,0)"}],
            "Box 1: color 'rgb(1000000000000000000000000,0,0)' is out of range",
        ),
        ([{"color": "rgb(256,0,0)"}], "each channel must be 0 to 255"),
        ([{"color": "hsv(10,500%,50%)"}], "each channel must be 0 to 255"),
        ([{"color": "rgba(0,0,0,999)"}], "each channel must be 0 to 255"),
        ([{"font": "comic sans"}], "unknown font"),
        ([{"style": "shout"}], "style must be one of"),
        ([{"align": "justify"}], "align must be one of"),
        ([{}, {"size": 12}], "Box 2: unknown setting(s) size"),
    ],
)
def test_bad_boxes_are_rejected_with_a_message_naming_the_box(raw: object, message: str) -> None:
    with pytest.raises(LayoutError, match=re.escape(message)):
        parse_boxes(raw)


def test_styles_shape_the_text_as_memegen_does() -> None:
    assert apply_style("one does not", "upper") == "ONE DOES NOT"
    assert apply_style("one does not", "default") == "One does not"
    assert apply_style("One Does", "default") == "One Does"
    assert apply_style("mocking", "mock") == "mOcKiNg"
    assert apply_style("as is", "none") == "as is"


def test_a_long_setting_is_quoted_back_short() -> None:
    with pytest.raises(LayoutError) as raised:
        parse_boxes([{"anchor_x": "x" * 100_000, "font": [[[[[[[["comic"]]]]]]]]}])
    assert all(len(problem) < 200 for problem in raised.value.problems), raised.value.problems


def test_every_colour_in_range_is_one_the_renderer_draws() -> None:
    for color in ("rgb(255,255,255)", "rgba(0,0,0,0)", "hsl(360,100%,100%)", "#ffffff80", "white"):
        render_meme(Image.new("RGB", (200, 150)), parse_boxes([{"color": color}]), ["drawn"], width=200)
