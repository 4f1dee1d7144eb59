"""The one schema for a template's text boxes.

Admin forms, the API, the template importer and the renderer all go through
``parse_boxes``: a box is valid in one place exactly when it is valid in all.
Semantics follow memegen's ``config.yml``: anchor and scale are fractions of
the image (0..1, origin top-left), angle is in degrees counter-clockwise.
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from PIL import ImageColor

# upper: all capitals; none: as written; default: capitalised when written all in
# lower case (memegen's "default"); mock: aLtErNaTiNg case (Mocking SpongeBob).
Style = Literal["upper", "none", "default", "mock"]
Align = Literal["center", "left", "right"]

FONTS = {
    "thick": "TitilliumWeb-Black.ttf",
    "thin": "TitilliumWeb-SemiBold.ttf",
    "comic": "Kalam-Regular.ttf",
    "notosans": "NotoSans-Bold.ttf",
}
# memegen names some faces differently, and many configs ask for Impact, which
# is not free to ship: each maps to the closest face we do ship.
FONT_ALIASES = {
    "impact": "thick",
    "titilliumweb": "thick",
    "titillium": "thick",
    "kalam": "comic",
    "tiny": "thin",
    "noto": "notosans",
}
STYLES: tuple[Style, ...] = ("upper", "none", "default", "mock")
ALIGNS: tuple[Align, ...] = ("center", "left", "right")
MAX_BOXES = 10
# Fractions may overshoot 1 by rounding in hand-written configs (0.3 + 0.7001).
EDGE_TOLERANCE = 0.005
# A colour's channels as Pillow draws them: ImageColor reads rgb(300,0,0) and
# rgb(10^24,0,0) alike, and drawing the second raises OverflowError.
CHANNEL_RANGE = range(256)

# A setting quoted back in a problem is cut short (80 characters, 6 levels of
# nesting): a curator's megabyte of text or a list 30 deep still gets one line.
_quote = reprlib.Repr()
_quote.maxstring = 80


class LayoutError(ValueError):
    """A text box layout that cannot be drawn: every problem found, each naming its box."""

    def __init__(self, problems: str | list[str]) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class TextBox:
    anchor_x: float = 0.0
    anchor_y: float = 0.0
    scale_x: float = 1.0
    scale_y: float = 0.2
    angle: float = 0.0
    color: str = "white"
    font: str = "thick"
    style: Style = "upper"
    align: Align = "center"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def centre(self, size: tuple[int, int]) -> tuple[float, float]:
        """Where the box's text is centred on an image of ``size``, in pixels:
        memegen turns a box about its centre and puts the turned outline's
        corner at the anchor."""
        width, height = self.scale_x * size[0], self.scale_y * size[1]
        radians = math.radians(self.angle)
        turned_width = width * abs(math.cos(radians)) + height * abs(math.sin(radians))
        turned_height = width * abs(math.sin(radians)) + height * abs(math.cos(radians))
        return self.anchor_x * size[0] + turned_width / 2, self.anchor_y * size[1] + turned_height / 2


def parse_boxes(raw: Any) -> list[TextBox]:
    """Validate a list of box mappings (memegen keys) into ``TextBox`` values;
    a bad list raises one ``LayoutError`` naming every problem of every box."""
    if not isinstance(raw, list):
        raise LayoutError("text boxes must be a list of boxes")
    if not raw:
        raise LayoutError("a template needs at least one text box")
    if len(raw) > MAX_BOXES:
        raise LayoutError(f"a template may have at most {MAX_BOXES} text boxes, not {len(raw)}")
    boxes: list[TextBox] = []
    problems: list[str] = []
    for number, item in enumerate(raw, start=1):
        try:
            boxes.append(_parse_box(item))
        except LayoutError as error:
            problems += [f"Box {number}: {problem}" for problem in error.problems]
    if problems:
        raise LayoutError(problems)
    return boxes


def memegen_boxes(raw: Any, lenient_styles: bool = False) -> list[TextBox]:
    """memegen's ``text`` list as our boxes. memegen lets a turned box hang a
    little over the edge (its text still lands inside); ours stay inside the
    image, so such boxes are pulled in. With ``lenient_styles`` a style memegen
    ignores (a typo such as "thin") reads as "none" instead of an error."""
    if not isinstance(raw, list):
        return parse_boxes(raw)
    pulled = []
    for box in raw:
        if isinstance(box, dict):
            box = dict(box)
            if lenient_styles and box.get("style", "upper") not in STYLES:
                box["style"] = "none"
            for axis in ("x", "y"):
                anchor, scale = (
                    box.get(f"anchor_{axis}"),
                    box.get(f"scale_{axis}", 1.0 if axis == "x" else 0.2),
                )
                if isinstance(anchor, (int, float)) and isinstance(scale, (int, float)) and 0 < scale <= 1:
                    # Compared as they are: float() of a 400-digit int overflows.
                    box[f"anchor_{axis}"] = float(min(max(anchor, 0.0), 1.0 - scale))
        pulled.append(box)
    return parse_boxes(pulled)


def apply_style(text: str, style: Style) -> str:
    """The text as the box shows it."""
    if style == "upper":
        return text.upper()
    if style == "default":
        return text[:1].upper() + text[1:] if text.islower() else text
    if style == "mock":
        return "".join(char.upper() if index % 2 else char.lower() for index, char in enumerate(text))
    return text


def boxes_to_json(boxes: list[TextBox]) -> list[dict[str, Any]]:
    return [box.to_dict() for box in boxes]


def default_boxes(count: int = 2) -> list[TextBox]:
    """Classic top and bottom captions (or just the top one)."""
    if count == 1:
        return [TextBox(anchor_y=0.0)]
    return [TextBox(anchor_y=0.0), TextBox(anchor_y=0.8)]


def _parse_box(item: Any) -> TextBox:
    """One box, or a ``LayoutError`` listing each of its settings that is wrong."""
    if not isinstance(item, dict):
        raise LayoutError(f"must be a mapping of settings, not {type(item).__name__}")
    problems: list[str] = []

    def checked(check: Callable[..., Any], name: str, *extra: Any) -> Any:
        default = getattr(TextBox, name)
        try:
            return check(name, item.get(name, default), *extra)
        except LayoutError as error:
            problems.extend(error.problems)
            return default

    # memegen's animation keys (start, stop) mean nothing for still images.
    unknown = set(item) - set(TextBox.__dataclass_fields__) - {"start", "stop"}
    if unknown:
        problems.append(f"unknown setting(s) {', '.join(sorted(map(str, unknown)))}")
    box = TextBox(
        anchor_x=checked(_fraction, "anchor_x"),
        anchor_y=checked(_fraction, "anchor_y"),
        scale_x=checked(_fraction, "scale_x", True),
        scale_y=checked(_fraction, "scale_y", True),
        angle=checked(_angle, "angle"),
        color=checked(_color, "color"),
        font=checked(_font, "font"),
        style=checked(_choice, "style", STYLES),
        align=checked(_choice, "align", ALIGNS),
    )
    if problems:
        raise LayoutError(problems)
    for axis in ("x", "y"):
        end = getattr(box, f"anchor_{axis}") + getattr(box, f"scale_{axis}")
        if end > 1 + EDGE_TOLERANCE:
            problems.append(f"anchor_{axis} + scale_{axis} = {end:.3f} reaches outside the image")
    if problems:
        raise LayoutError(problems)
    return box


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LayoutError(f"{name} must be a number, not {_quote.repr(value)}")
    try:
        number = float(value)
    except OverflowError:  # JSON and YAML read 400 digits as one int; a float stops near 1.8e308
        raise LayoutError(f"{name} must be a finite number, not one of over 300 digits") from None
    if not math.isfinite(number):
        raise LayoutError(f"{name} must be a finite number")
    return number


def _fraction(name: str, value: Any, positive: bool = False) -> float:
    fraction = _number(name, value)
    low_ok = fraction > 0 if positive else fraction >= 0
    if not low_ok or fraction > 1 + EDGE_TOLERANCE:
        bound = "(0, 1]" if positive else "[0, 1]"
        raise LayoutError(f"{name} must be a fraction of the image in {bound}, not {fraction:.10g}")
    return min(fraction, 1.0)


def _angle(name: str, value: Any) -> float:
    angle = _number(name, value)
    if not -180 <= angle <= 180:
        raise LayoutError(f"{name} must be in degrees between -180 and 180, not {angle:.10g}")
    return angle


def _color(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise LayoutError(f"{name} must be a colour name or #hex code, not {_quote.repr(value)}")
    try:
        channels = ImageColor.getrgb(value.strip())
    except ValueError:
        raise LayoutError(
            f"{name} {_quote.repr(value)} is not a colour (a name such as white, or #hex)"
        ) from None
    if not all(channel in CHANNEL_RANGE for channel in channels):
        raise LayoutError(f"{name} {_quote.repr(value)} is out of range: each channel must be 0 to 255")
    return value.strip()


def _font(name: str, value: Any) -> str:
    face = str(value).strip().lower() if isinstance(value, str) else ""
    face = FONT_ALIASES.get(face, face)
    if face not in FONTS:
        raise LayoutError(f"unknown {name} {_quote.repr(value)}; choose one of {', '.join(FONTS)}")
    return face


def _choice(name: str, value: Any, choices: tuple[Any, ...]) -> Any:
    if value not in choices:
        raise LayoutError(f"{name} must be one of {', '.join(choices)}, not {_quote.repr(value)}")
    return value
