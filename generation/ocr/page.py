"""The page Tesseract reads: every text region drawn black on white, turned
level and scaled to the letter height Tesseract reads best, stacked in
reading order, and the way back from page pixels to image pixels.

Meme text is not what Tesseract expects (dark text on a plain light page),
so the image is first reduced to such a page; one Tesseract call then reads
all of its regions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image

from generation.ocr.geometry import Box, vertical_share
from generation.ocr.letters import Mask, TextRegion

TARGET_LETTER_HEIGHT = 40  # pixels: Tesseract reads heavy caption faces best around this cap height
MIN_SCALE, MAX_SCALE = 0.6, 4.0  # page pixels per image pixel: heavy letters shrunk further close their holes
PAGE_BORDER = 16  # pixels of white around the page: Tesseract misses text touching the edge
PAGE_GAP = 48  # pixels of white between regions stacked on the page
MIN_SKEW = 2.0  # degrees: text turned less than this is read as it is


def reading_order(regions: Sequence[TextRegion]) -> list[TextRegion]:
    """Regions top to bottom, and left to right within a row: regions sharing
    most of their height are one row (the words of a line can fall into two
    regions where a comma leaves a gap, and the taller one starts higher)."""
    rows: list[list[TextRegion]] = []
    for region in sorted(regions, key=lambda region: region.box[1] + region.box[3] / 2):
        row = rows[-1] if rows else []
        if row and vertical_share(row[-1].box, region.box) >= 0.5:
            row.append(region)
        else:
            rows.append([region])
    return [region for row in rows for region in sorted(row, key=lambda region: region.box[0])]


def skew_angle(mask: Mask) -> float:
    """Degrees (counter-clockwise) the text in ``mask`` is turned by: the angle
    whose row profile of letter pixels is sharpest (text lines make tall peaks)."""
    rows, columns = np.nonzero(mask)
    if rows.size < 50:
        return 0.0
    step = max(1, rows.size // 4000)  # a few thousand pixels decide the angle
    y, x = rows[::step].astype(np.float32), columns[::step].astype(np.float32)

    def sharpness(degrees: float) -> float:
        radians = np.deg2rad(degrees)
        turned = y * np.cos(radians) + x * np.sin(radians)  # row after turning the text level
        counts = np.bincount((turned - turned.min()).astype(np.int64))
        return float((counts.astype(np.float64) ** 2).sum())

    coarse = max(np.arange(-45.0, 45.5, 3.0), key=sharpness)
    fine = max(np.arange(coarse - 2.5, coarse + 2.6, 0.5), key=sharpness)
    if abs(fine) < MIN_SKEW or sharpness(fine) < 1.1 * sharpness(0.0):
        return 0.0
    return float(fine)


@dataclass(frozen=True)
class Placement:
    region: TextRegion
    top: int  # pixels from the top of the page to the region's strip
    to_page: npt.NDArray[np.float64]  # (2, 3) affine: region pixels to strip pixels (levelled, scaled)

    @property
    def scale(self) -> float:
        return float(np.hypot(*self.to_page[0, :2]))

    @property
    def angle(self) -> float:
        """Degrees the region's text is turned counter-clockwise (OpenCV's matrix
        turns by minus that to level it)."""
        cos, sin = self.to_page[0, :2]
        return round(-float(np.degrees(np.arctan2(sin, cos))), 1) + 0.0


def compose_page(regions: Sequence[TextRegion]) -> tuple[Image.Image, list[Placement]]:
    """All regions black on white, stacked with gaps, each turned level and
    scaled so its letters are ~TARGET_LETTER_HEIGHT px tall: one Tesseract
    call reads them all."""
    placements, strips, top = [], [], PAGE_BORDER
    for region in regions:
        strip, to_page = levelled_strip(region)
        placements.append(Placement(region, top, to_page))
        strips.append((top, strip))
        top += strip.shape[0] + PAGE_GAP
    width = max((strip.shape[1] for _, strip in strips), default=1) + 2 * PAGE_BORDER
    page = np.full((top - PAGE_GAP + PAGE_BORDER, width), 255, np.uint8)
    for strip_top, strip in strips:
        page[strip_top : strip_top + strip.shape[0], PAGE_BORDER : PAGE_BORDER + strip.shape[1]] = strip
    return Image.fromarray(page), placements


def levelled_strip(region: TextRegion) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
    """The region's letters black on white, turned level and scaled, and the
    affine map from region pixels to strip pixels."""
    scale = min(MAX_SCALE, max(MIN_SCALE, TARGET_LETTER_HEIGHT / region.letter_height))
    height, width = region.mask.shape
    # OpenCV turns counter-clockwise for positive angles: -skew levels the text.
    to_page = cv2.getRotationMatrix2D((width / 2, height / 2), -skew_angle(region.mask), scale).astype(
        np.float64
    )
    corners = np.array([[0, 0, 1], [width, 0, 1], [0, height, 1], [width, height, 1]], np.float64) @ to_page.T
    to_page[:, 2] -= corners.min(axis=0)  # shift so the turned region starts at (0, 0)
    size = np.ceil(corners.max(axis=0) - corners.min(axis=0)).astype(int)
    ink = np.where(region.mask, 0, 255).astype(np.uint8)
    strip = cv2.warpAffine(
        ink, to_page, (max(1, size[0]), max(1, size[1])), flags=cv2.INTER_LINEAR, borderValue=255
    )
    return np.where(strip < 128, 0, 255).astype(np.uint8), to_page


def to_image(box: Box, placements: Sequence[Placement]) -> tuple[int, Box]:
    """The region a box on the page lies in (by its centre) and the box in image pixels."""
    centre = box[1] + box[3] / 2
    index = max((i for i, p in enumerate(placements) if p.top - PAGE_GAP / 2 <= centre), default=0)
    placement = placements[index]
    left, top = box[0] - PAGE_BORDER, box[1] - placement.top  # strip pixels
    corners = np.array(
        [[left, top, 1], [left + box[2], top, 1], [left, top + box[3], 1], [left + box[2], top + box[3], 1]],
        np.float64,
    )
    in_region = corners @ cv2.invertAffineTransform(placement.to_page).T  # (4, 2) region pixels
    low, high = in_region.min(axis=0), in_region.max(axis=0)
    region_left, region_top = placement.region.box[:2]
    return index, (
        region_left + round(low[0]),
        region_top + round(low[1]),
        round(high[0] - low[0]),
        round(high[1] - low[1]),
    )
