"""Blank templates from captioned memes.

An admin may upload a meme that already carries a caption. Its text is read
(``generation.ocr``), each block of text becomes one of the template's text
boxes (fractions of the image, as ``generation.layout`` wants them), the
letters and their outlines are painted over from their surroundings (OpenCV
inpainting), and the text read is kept as an example caption.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image

from generation.layout import Style, TextBox
from generation.ocr import OcrBlock, OcrLine, TextRegion, overlap_ratio, read_blocks, text_regions

# Pixels around each letter painted over, in letter heights: covers a meme
# outline (about 0.09 letter heights) and the anti-aliased fringe around it.
# Measured (bench/blank_templates.py): 0.10 leaves the fringe, 0.25 and 0.4
# paint a wider ring from further away, smudgier (caption ink left 16.3% at
# 0.15, 18.7% at 0.10, 20.7% at 0.25, 30.7% at 0.4).
OUTLINE_REACH = 0.15
# Pixels each painted pixel looks around for colour (OpenCV's default is 3;
# 3 and 7 measured alike, and Navier-Stokes inpainting no better than Telea's).
INPAINT_RADIUS = 7
# A text box is the block's text plus room: new captions are longer or shorter.
BOX_PAD_X = 0.6  # of a line's height, left and right
BOX_PAD_Y = 0.35  # of a line's height, above and below
CENTRED = 0.06  # of image width: a block centred this closely, and wide, is a classic full-width caption
WIDE = 0.45  # of image width
MIN_CAPTION_LETTERS = 3
MIN_CAPTION_CONFIDENCE = 60  # mean word confidence, 0..100
SHORT_CAPTION_LETTERS = 6  # a block with fewer letters or digits than this is "short"
MIN_SHORT_CAPTION_CONFIDENCE = 85
MIN_CAPTION_HEIGHT = 0.018  # of image width: a line 14 px tall at 800 px, the smallest caption drawn
# A block right beside a caption is more of it (a line OCR was unsure of, a word
# read apart): it needs only this confidence, and to be within this many line
# heights of the caption, across or down.
MIN_NEIGHBOUR_CONFIDENCE = 40
NEIGHBOUR_REACH = 1.5


class NoTextFound(ValueError):
    """The image shows no readable caption to turn into text boxes."""


@dataclass(frozen=True)
class BlankTemplate:
    image: Image.Image  # RGB, the caption painted out
    boxes: list[TextBox]  # one per block of text, top to bottom
    texts: list[str]  # the text read from each block: an example caption


def make_blank_template(image: Image.Image) -> BlankTemplate:
    """Read a captioned meme's text, turn its blocks into boxes and paint the text out."""
    picture = image.convert("RGB")
    blocks = caption_blocks(read_blocks(picture), picture.size)
    if not blocks:
        raise NoTextFound(
            "no readable text found in the image: upload a blank template, or a meme whose caption is "
            "white with a dark outline or dark on a light background"
        )
    regions = [region for region in text_regions(picture) if any(covers(block, region) for block in blocks)]
    letters = letters_mask(picture.size, regions, reach=0.0)
    colours = [text_colour(picture, letters, block) for block in blocks]
    # Every letter of a region a caption covers goes, not only those inside the
    # blocks read: a word OCR read apart or dropped lies in the same region.
    mask = letters_mask(picture.size, regions, reach=OUTLINE_REACH)
    return BlankTemplate(
        image=painted_out(picture, mask),
        boxes=[box_for(block, picture.size, colour) for block, colour in zip(blocks, colours, strict=True)],
        texts=[block.text for block in blocks],
    )


def caption_blocks(blocks: Sequence[OcrBlock], size: tuple[int, int]) -> list[OcrBlock]:
    """The captions, in reading order: the blocks sure enough alone, each grown
    step by step by the less sure blocks right beside it (one caption, one box)."""
    captions = [block for block in blocks if is_caption(block, size)]
    rest = [block for block in blocks if block not in captions]
    joined = True
    while joined:
        joined = False
        for block in list(rest):
            home = next((n for n, caption in enumerate(captions) if continues(block, caption, size)), None)
            if home is not None:
                captions[home] = merged(captions[home], block)
                rest.remove(block)
                joined = True
    return sorted(captions, key=lambda block: (block.bbox[1], block.bbox[0]))


def continues(block: OcrBlock, caption: OcrBlock, size: tuple[int, int]) -> bool:
    """A block that is more of the caption beside it: a line or words OCR was less sure of."""
    letters = sum(char.isalnum() for char in block.text)
    return (
        letters >= MIN_CAPTION_LETTERS
        and block.confidence >= MIN_NEIGHBOUR_CONFIDENCE
        and line_height(block) >= MIN_CAPTION_HEIGHT * size[0]
        and not block.angle
        and not caption.angle
        and beside(block, caption)
    )


def merged(caption: OcrBlock, block: OcrBlock) -> OcrBlock:
    """One block of both, its lines in reading order (rows top to bottom, left to right)."""
    row = max(1.0, min(line_height(caption), line_height(block)))
    lines = sorted((*caption.lines, *block.lines), key=lambda line: (round(line.box[1] / row), line.box[0]))
    left = min(caption.bbox[0], block.bbox[0])
    top = min(caption.bbox[1], block.bbox[1])
    right = max(caption.bbox[0] + caption.bbox[2], block.bbox[0] + block.bbox[2])
    bottom = max(caption.bbox[1] + caption.bbox[3], block.bbox[1] + block.bbox[3])
    return OcrBlock(
        " ".join(line.text for line in lines), (left, top, right - left, bottom - top), tuple(lines)
    )


def beside(first: OcrBlock, second: OcrBlock) -> bool:
    """Within NEIGHBOUR_REACH line heights of each other, across and down."""
    reach = NEIGHBOUR_REACH * max(line_height(first), line_height(second))
    (x1, y1, w1, h1), (x2, y2, w2, h2) = first.bbox, second.bbox
    gap_x = max(x1 - (x2 + w2), x2 - (x1 + w1), 0)
    gap_y = max(y1 - (y2 + h2), y2 - (y1 + h1), 0)
    return gap_x <= reach and gap_y <= reach


def line_height(block: OcrBlock) -> float:
    """Pixels a row of the block's text takes, the gap under it included."""
    return block.bbox[3] / rows(block.lines)


def rows(lines: Sequence[OcrLine]) -> int:
    """Rows the lines form: words read apart on one row are one row."""
    ordered = sorted(lines, key=lambda line: line.box[1])
    return 1 + sum(below.box[1] >= above.box[1] + above.box[3] / 2 for above, below in pairwise(ordered))


def is_caption(block: OcrBlock, size: tuple[int, int]) -> bool:
    """Big, confident and wordy enough to be a caption, not a logo or a speck of texture."""
    letters = sum(char.isalnum() for char in block.text)
    # A word or two of a few letters is as likely a drawing read as text: it must be read surely.
    needed = MIN_CAPTION_CONFIDENCE if letters >= SHORT_CAPTION_LETTERS else MIN_SHORT_CAPTION_CONFIDENCE
    return (
        letters >= MIN_CAPTION_LETTERS
        and block.confidence >= needed
        and line_height(block) >= MIN_CAPTION_HEIGHT * size[0]
    )


def covers(block: OcrBlock, region: TextRegion) -> bool:
    """Most of the region lies in the block: its letters are the block's."""
    return overlap_ratio(region.box, block.bbox) > 0.5 and region.box[2] * region.box[3] <= 4 * (
        block.bbox[2] * block.bbox[3]
    )


def letters_mask(size: tuple[int, int], regions: Sequence[TextRegion], reach: float) -> npt.NDArray[np.uint8]:
    """255 where a letter is, grown by ``reach`` letter heights (0 for the letters alone)."""
    mask = np.zeros((size[1], size[0]), np.uint8)
    for region in regions:
        left, top, width, height = region.box
        pixels = max(1, round(region.letter_height * reach))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pixels + 1, 2 * pixels + 1))
        padded = np.zeros((height + 2 * pixels, width + 2 * pixels), np.uint8)
        padded[pixels : pixels + height, pixels : pixels + width] = region.mask * 255
        grown = cv2.dilate(padded, kernel)
        # Paste the grown letters back, clipped at the image's edges.
        x0, y0 = left - pixels, top - pixels
        clip_x, clip_y = max(0, -x0), max(0, -y0)
        x1, y1 = min(size[0], x0 + grown.shape[1]), min(size[1], y0 + grown.shape[0])
        target = mask[y0 + clip_y : y1, x0 + clip_x : x1]
        np.maximum(
            target, grown[clip_y : clip_y + target.shape[0], clip_x : clip_x + target.shape[1]], out=target
        )
    return mask


def painted_out(image: Image.Image, mask: npt.NDArray[np.uint8]) -> Image.Image:
    """The image with the masked pixels filled from their surroundings (Telea's method)."""
    bgr = cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR)
    filled = cv2.inpaint(bgr, mask, INPAINT_RADIUS, cv2.INPAINT_TELEA)
    return Image.fromarray(cv2.cvtColor(filled, cv2.COLOR_BGR2RGB))


def text_colour(image: Image.Image, mask: npt.NDArray[np.uint8], block: OcrBlock) -> str:
    """White or black, whichever the block's letters are closer to (grey-level
    median of the painted pixels: outlines are thinner than fills)."""
    left, top, width, height = block.bbox
    grey = np.asarray(image.convert("L"))[top : top + height, left : left + width]
    painted = grey[mask[top : top + height, left : left + width] > 0]
    if painted.size == 0:
        return "white"
    return "white" if float(np.median(painted)) >= 128 else "black"


def box_for(block: OcrBlock, size: tuple[int, int], colour: str) -> TextBox:
    """The block's text box as fractions of the image: the text's extent plus room."""
    if block.angle:
        return turned_box_for(block, size, colour)
    width, height = size
    row = line_height(block)
    left = max(0.0, block.bbox[0] - BOX_PAD_X * row)
    right = min(float(width), block.bbox[0] + block.bbox[2] + BOX_PAD_X * row)
    top = max(0.0, block.bbox[1] - BOX_PAD_Y * row)
    bottom = min(float(height), block.bbox[1] + block.bbox[3] + BOX_PAD_Y * row)
    centre = (left + right) / 2
    if abs(centre - width / 2) <= CENTRED * width and right - left >= WIDE * width:
        left, right = 0.0, float(width)  # a classic top or bottom caption spans the image
    return TextBox(
        anchor_x=round(left / width, 4),
        anchor_y=round(top / height, 4),
        scale_x=round((right - left) / width, 4),
        scale_y=round((bottom - top) / height, 4),
        color=colour,
        font="thick",
        style=style_of(block),
    )


def turned_box_for(block: OcrBlock, size: tuple[int, int], colour: str) -> TextBox:
    """A turned block's box: its level text plus room, turned by the block's
    angle about where the text was. The schema places a turned box as memegen
    draws it: the box turned about its centre, the turned outline's corner at
    the anchor."""
    width, height = size
    level_width, level_height = block.upright_size
    line_height = level_height / len(block.lines)
    box_width = min(float(width), level_width + 2 * BOX_PAD_X * line_height)
    box_height = min(float(height), level_height + 2 * BOX_PAD_Y * line_height)
    radians = math.radians(block.angle)
    turned_width = box_width * abs(math.cos(radians)) + box_height * abs(math.sin(radians))
    turned_height = box_width * abs(math.sin(radians)) + box_height * abs(math.cos(radians))
    centre_x = block.bbox[0] + block.bbox[2] / 2
    centre_y = block.bbox[1] + block.bbox[3] / 2
    scale_x, scale_y = round(box_width / width, 4), round(box_height / height, 4)
    return TextBox(
        anchor_x=round(min(max(0.0, (centre_x - turned_width / 2) / width), 1.0 - scale_x), 4),
        anchor_y=round(min(max(0.0, (centre_y - turned_height / 2) / height), 1.0 - scale_y), 4),
        scale_x=scale_x,
        scale_y=scale_y,
        angle=round(block.angle, 1),
        color=colour,
        font="thick",
        style=style_of(block),
    )


def style_of(block: OcrBlock) -> Style:
    """Upper when the text read has no lower-case letter."""
    letters = [char for char in block.text if char.isalpha()]
    return "upper" if letters and all(char.isupper() for char in letters) else "none"
