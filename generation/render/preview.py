"""What the renderer would draw over a template, on a transparent canvas: the
box editor lays it over the image in the browser, so a curator sees the real
text fitting (faces, sizes, line breaks, outline, mark) for boxes not yet saved
without sending the image."""

from __future__ import annotations

import numpy as np
from PIL import Image

from generation.layout import TextBox
from generation.render.canvas import output_size
from generation.render.meme import Rendered, render_meme


def text_overlay(
    template_size: tuple[int, int],
    boxes: list[TextBox],
    texts: list[str],
    *,
    width: int = 800,
    mark_position: str = "bottom-right",
) -> tuple[Image.Image, Rendered]:
    """The text ``render_meme`` draws for a template of ``template_size`` pixels,
    as an RGBA image ``width`` pixels wide, and the render's report.

    Drawing is compositing, linear in the background: drawn on black a pixel
    reads b = a·c, on white w = a·c + (1 − a)·255, so the opacity is
    a = 1 − (w − b) / 255 and the colour c = b / a. Text fitting never looks at
    the template's pixels, so two plain canvases give exactly what the template
    would get."""
    size = output_size(template_size, width)
    on_black, on_white = (
        render_meme(Image.new("RGB", size, ground), boxes, texts, width=width, mark_position=mark_position)
        for ground in ("black", "white")
    )
    black = np.asarray(on_black.image, dtype=np.float32)  # (H, W, 3)
    white = np.asarray(on_white.image, dtype=np.float32)
    alpha = np.clip(1.0 - (white - black).mean(axis=2) / 255.0, 0.0, 1.0)  # (H, W)
    colour = np.clip(black / np.maximum(alpha, 1 / 255)[..., None], 0, 255)
    rgba = np.dstack([colour, alpha[..., None] * 255]).round().astype(np.uint8)  # (H, W, 4)
    return Image.fromarray(rgba, "RGBA"), on_black
