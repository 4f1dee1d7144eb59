"""Finding letters: patches of caption text in a meme, before any reading.

Meme text is white letters with a black outline over a photo, or black text
on white. A letter is a connected blob of light (or dark) pixels whose rim is
almost all of the opposite tone, which is exactly what an outline or a plain
background gives and what a sky or a shirt does not. Blobs near each other
and of about one height form a region: a caption block, usually.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image

from generation.ocr.geometry import Box, area_ratio, overlap_ratio

LIGHT = 170  # grey level (0..255) at or above which a pixel may be part of white text
DARK = 90  # grey level at or below which a pixel may be part of black text or an outline
MAX_CHROMA = 110  # max - min of R, G, B above which a pixel is too colourful to be caption ink
MIN_FILL = 0.1  # inked share of a blob's bounding box below which it is line art
MAX_HEIGHT_RATIO = 2.5  # blobs of more different heights are not letters of one caption
RIM_CONTRAST = 0.6  # share of a blob's rim that must be of the opposite tone to count as a letter
MIN_LETTER_HEIGHT = 2  # pixels: dots and commas count too
MIN_READABLE_HEIGHT = 6  # pixels: a region needs two blobs this tall to be read at all
MAX_LETTER_FRACTION = 0.25  # of image height: taller blobs are scenery, not letters
MAX_BLOBS = 1500  # letter candidates linked pairwise per tone ((N, N) matrices of floats)

Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class TextRegion:
    """A patch of letters of one tone (a caption block, usually) and their size."""

    box: Box  # in image pixels
    mask: Mask  # letter pixels inside ``box``
    letter_height: float  # median letter height in pixels
    blobs: int  # letter-sized blobs: one per letter for a fill, a few for an outline


def text_regions(image: Image.Image) -> list[TextRegion]:
    """Patches of light letters (white text with a dark outline) and of dark
    letters (black text on light), each a blob of one tone rimmed by the other."""
    rgb = np.asarray(image.convert("RGB")).astype(np.int16)
    grey = np.asarray(image.convert("L"))
    # Caption ink is white, black or a pale tint (khaki); sparks, skies and
    # skin are saturated: chroma = max - min channel, 0..255.
    neutral = (rgb.max(axis=2) - rgb.min(axis=2)) <= MAX_CHROMA
    near = np.ones((3, 3), np.uint8)
    # A rim pixel counts as dark (light) when it or a neighbour is: the pixel
    # right next to a letter is often an anti-aliased mid-grey.
    near_dark = cv2.erode(grey, near) <= DARK
    near_light = cv2.dilate(grey, near) >= LIGHT
    max_height = grey.shape[0] * MAX_LETTER_FRACTION
    tones = []
    for candidates, contrast in (
        ((grey >= LIGHT) & neutral, near_dark),
        ((grey <= DARK) & neutral, near_light),
    ):
        labels, blobs = letter_blobs(candidates, contrast, max_height)
        tones.append(
            [region for group in group_letters(blobs) if (region := make_region(labels, blobs, group))]
        )
    return without_outlines(*tones)


def without_outlines(light: list[TextRegion], dark: list[TextRegion]) -> list[TextRegion]:
    """Outlined text shows up in both tones: its fill as one blob per letter,
    its outline as a few blobs (the outlines of neighbouring letters touch).
    Where a light and a dark region of comparable size mostly overlap, the one
    with fewer blobs goes. (A white panel behind black letters is no rival: it
    is over ten times their area.) So does the outline of a word inside a
    caption of many letters: a few blobs against five times as many, and the
    caption's letters no taller than the word (a panel's blobs are)."""
    dropped: set[int] = set()
    for first in light:
        for second in dark:
            if overlap_ratio(first.box, second.box) > 0.5 and (
                area_ratio(first.box, second.box) >= 0.1 or outline_within(first, second)
            ):
                dropped.add(id(second) if first.blobs >= second.blobs else id(first))
    return [region for region in light + dark if id(region) not in dropped]


def outline_within(first: TextRegion, second: TextRegion) -> bool:
    """One region is a few blobs of outline among the other's many letters."""
    fewer, more = sorted((first, second), key=lambda region: region.blobs)
    return more.blobs >= 5 * fewer.blobs and more.letter_height <= fewer.box[3]


def letter_blobs(
    candidates: Mask, contrast: Mask, max_height: float
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Connected blobs of ``candidates`` whose 1-px rim is mostly ``contrast``:
    a label image (blob i is labelled i + 1, everything else 0) and the blobs'
    boxes (left, top, width, height) in pixels."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(candidates.astype(np.uint8), connectivity=8)
    # Each rim pixel takes the label of the blob it touches (grey dilation of labels).
    rim_labels = cv2.dilate(labels.astype(np.float32), np.ones((3, 3), np.uint8)).astype(np.int32)
    rim = (rim_labels > 0) & ~candidates
    rim_total = np.bincount(rim_labels[rim], minlength=count)
    rim_contrast = np.bincount(rim_labels[rim & contrast], minlength=count)
    heights = stats[:, cv2.CC_STAT_HEIGHT]
    # Line art (panel borders, outlines of a drawing) is long and thin: little
    # of its bounding box is inked. Small blobs are exempt (a "/" or "l").
    fill = stats[:, cv2.CC_STAT_AREA] / np.maximum(stats[:, cv2.CC_STAT_WIDTH] * heights, 1)
    keep = (
        (rim_contrast >= RIM_CONTRAST * np.maximum(rim_total, 1))
        & ((fill >= MIN_FILL) | (heights < 12))
        & (heights >= MIN_LETTER_HEIGHT)
        & (heights <= max_height)
        & (stats[:, cv2.CC_STAT_WIDTH] <= max_height * 3)
    )
    keep[0] = False  # label 0 is everything that is not a candidate
    renumbered = np.zeros(count, np.int32)
    renumbered[keep] = np.arange(1, int(keep.sum()) + 1)
    return renumbered[labels], stats[keep, :4].astype(np.int32)


def group_letters(blobs: npt.NDArray[np.int32]) -> list[npt.NDArray[np.intp]]:
    """Indices of blobs forming one region. Two blobs are linked when the gap
    between their boxes is under 0.6 of the smaller one's size (longer side)
    across and under 0.7 of the shorter one's height down: letters of a word,
    words of a line, lines of a block, and a hyphen or comma with its word,
    while a caption's big letters do not swallow small text beside them."""
    order = np.argsort(-blobs[:, 3], kind="stable")[:MAX_BLOBS]  # a textured photo: specks are not text
    boxes = blobs[order].astype(np.float32)
    left, top, width, height = boxes.T
    right, bottom = left + width, top + height
    gap_x = np.maximum(left[None, :] - right[:, None], left[:, None] - right[None, :])  # (N, N) pixels
    gap_y = np.maximum(top[None, :] - bottom[:, None], top[:, None] - bottom[None, :])
    size = np.maximum(width, height)
    shorter = np.minimum(height[:, None], height[None, :])
    taller = np.maximum(height[:, None], height[None, :])
    smaller_size = np.minimum(size[:, None], size[None, :])
    # Letters of one caption are about one height; punctuation is much smaller.
    alike = (taller <= MAX_HEIGHT_RATIO * shorter) | (smaller_size <= 0.5 * taller)
    linked = (gap_x <= 0.6 * smaller_size + 1) & (gap_y <= 0.7 * shorter + 1) & alike
    return [order[group] for group in connected_groups(linked)]


def connected_groups(linked: npt.NDArray[np.bool_]) -> list[npt.NDArray[np.intp]]:
    """Connected components of a symmetric adjacency matrix, as index arrays."""
    group = np.full(len(linked), -1)
    groups: list[npt.NDArray[np.intp]] = []
    for start in range(len(linked)):
        if group[start] >= 0:
            continue
        members, frontier = {start}, [start]
        while frontier:
            neighbours = set(np.flatnonzero(linked[frontier].any(axis=0)).tolist()) - members
            members |= neighbours
            frontier = list(neighbours)
        indices = np.array(sorted(members))
        group[indices] = len(groups)
        groups.append(indices)
    return groups


def make_region(
    labels: npt.NDArray[np.int32], blobs: npt.NDArray[np.int32], members: npt.NDArray[np.intp]
) -> TextRegion | None:
    """The region of the given blobs, or None when fewer than two are letter-sized
    (one blob is a speck or a lone shape, not text)."""
    heights = blobs[members, 3]
    letters = heights[heights >= MIN_READABLE_HEIGHT]
    if letters.size < 2:
        return None
    left, top = int(blobs[members, 0].min()), int(blobs[members, 1].min())
    right = int((blobs[members, 0] + blobs[members, 2]).max())
    bottom = int((blobs[members, 1] + blobs[members, 3]).max())
    inside = np.isin(labels[top:bottom, left:right], members + 1)
    return TextRegion(
        (left, top, right - left, bottom - top), inside, float(np.median(letters)), int(letters.size)
    )
