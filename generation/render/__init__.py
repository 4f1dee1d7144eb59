"""Meme rendering: a template image, its text boxes and a caption in, an image out.

Plain functions, no Django and no Celery. One module per concern, each
depending only on those above it:

- ``fonts``: the shipped faces (``FONT_DIR``), which characters each can draw
  and the stand-ins for those it cannot;
- ``geometry``: pixel rectangles;
- ``fit``: a caption's line breaks and the largest size that fits a box;
- ``boxes``: every box of a template laid out at an output size, grown when
  its text would be drawn under the readable size;
- ``draw``: a box's lines drawn on the image, rotated boxes included;
- ``mark``: the "AI-generated" label, placed clear of every caption;
- ``canvas``: the template resized to the output width, and a band added
  below it when the label has no clear spot on the picture;
- ``meme``: ``render_meme``, all of the above in order;
- ``preview``: what ``render_meme`` would draw, on a transparent canvas (the
  admin's live box preview);
- ``encode`` and ``keys``: the bytes for the feed and the file name they go under.
"""

from generation.render.boxes import Laid, layout_boxes, readable_size
from generation.render.canvas import load_template, resized_template
from generation.render.draw import drawn_ink
from generation.render.encode import ImageFormat, encode_meme
from generation.render.fonts import FONT_DIR
from generation.render.geometry import contains
from generation.render.keys import RENDERER_VERSION, render_key
from generation.render.mark import MARK_POSITIONS, MarkPosition, mark_position_for
from generation.render.meme import Rendered, render_meme

__all__ = [
    "FONT_DIR",
    "MARK_POSITIONS",
    "RENDERER_VERSION",
    "ImageFormat",
    "Laid",
    "MarkPosition",
    "Rendered",
    "contains",
    "drawn_ink",
    "encode_meme",
    "layout_boxes",
    "load_template",
    "mark_position_for",
    "readable_size",
    "render_key",
    "render_meme",
    "resized_template",
]
