import pytest

from generation.layout import LayoutError, TextBox, apply_style, parse_boxes


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
        ([{"font": "comic sans"}], "unknown font"),
        ([{"style": "shout"}], "style must be one of"),
        ([{"align": "justify"}], "align must be one of"),
        ([{}, {"size": 12}], "Box 2: unknown setting(s) size"),
    ],
)
def test_bad_boxes_are_rejected_with_a_message_naming_the_box(raw: object, message: str) -> None:
    with pytest.raises(LayoutError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_boxes(raw)


def test_styles_shape_the_text_as_memegen_does() -> None:
    assert apply_style("one does not", "upper") == "ONE DOES NOT"
    assert apply_style("one does not", "default") == "One does not"
    assert apply_style("One Does", "default") == "One Does"
    assert apply_style("mocking", "mock") == "mOcKiNg"
    assert apply_style("as is", "none") == "as is"
