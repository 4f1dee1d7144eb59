"""Reading the text of a meme: pytesseract over Debian's ``tesseract-ocr``.

Meme text is white letters with a black outline over a photo, or black text on
white. Neither is what Tesseract expects (dark text on a plain light page), so
the image is first reduced to a clean page: a letter is a connected blob of
light (or dark) pixels whose rim is almost all of the opposite tone, which is
exactly what an outline or a plain background gives and what a sky or a shirt
does not. Those blobs are drawn black on white, scaled so letters are ~32 px
tall, and read. Light and dark text are read as two pages and merged.

Tesseract also invents junk (``|``, ``=-``, stray ``e`` from a photo's
texture): characters no caption uses are stripped and lines with too little
real text or confidence are dropped.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytesseract
from PIL import Image

LIGHT = 170  # grey level (0..255) at or above which a pixel may be part of white text
DARK = 90  # grey level at or below which a pixel may be part of black text or an outline
MAX_CHROMA = 110  # max - min of R, G, B above which a pixel is too colourful to be caption ink
MIN_FILL = 0.1  # inked share of a blob's bounding box below which it is line art
MAX_HEIGHT_RATIO = 2.5  # blobs of more different heights are not letters of one caption
RIM_CONTRAST = 0.6  # share of a blob's rim that must be of the opposite tone to count as a letter
MIN_LETTER_HEIGHT = 2  # pixels: dots and commas count too
MIN_READABLE_HEIGHT = 6  # pixels: a region needs two blobs this tall to be read at all
MAX_LETTER_FRACTION = 0.25  # of image height: taller blobs are scenery, not letters
TARGET_LETTER_HEIGHT = 40  # pixels: Tesseract reads heavy caption faces best around this cap height
MIN_SCALE, MAX_SCALE = 0.6, 4.0  # page pixels per image pixel: heavy letters shrunk further close their holes
PAGE_BORDER = 16  # pixels of white around the page: Tesseract misses text touching the edge
PAGE_GAP = 48  # pixels of white between regions stacked on the page
MAX_BLOBS = 1500  # letter candidates linked pairwise per tone ((N, N) matrices of floats)
MIN_SKEW = 2.0  # degrees: text turned less than this is read as it is
# LSTM engine; sparse text: find words anywhere (page layout analysis takes
# the stacked regions and their specks for pictures and skips real captions).
TESSERACT_CONFIG = "--oem 1 --psm 11"

# Characters a caption plausibly uses besides letters, digits and spaces.
CAPTION_PUNCTUATION = set(".,!?'\"’‘“”-–—:;()&%$#@*/+=…")
MIN_LINE_CONFIDENCE = 40  # mean word confidence (0..100) below which a short line is noise
MIN_WORD_CONFIDENCE = 20  # below this a word must at least look like a word to stay
MIN_SHORT_WORD_CONFIDENCE = 60  # below this a rare word of 1-3 letters is taken for texture
STRAIGHT_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})
# Common words of 1-3 letters (upper case), kept even when read with low confidence.
COMMON_SHORT_WORDS = frozenset(
    {
        *("A", "I", "AM", "AN", "AND", "ANY", "ARE", "AS", "AT", "BE", "BUT", "BY", "CAN", "DID", "DO"),
        *("DON", "FOR", "GET", "GOT", "HAD", "HAS", "HE", "HER", "HIM", "HIS", "HOW", "IF", "IN", "IS"),
        *("IT", "ITS", "LET", "ME", "MY", "NO", "NOT", "NOW", "OF", "OH", "OK", "ON", "ONE", "OR", "OUR"),
        *("OUT", "SAY", "SEE", "SHE", "SO", "THE", "TO", "TOO", "TWO", "UP", "US", "WAS", "WE", "WHO"),
        *("WHY", "YES", "YET", "YOU"),
    }
)
# A stop glued between two runs of letters is a speck OCR read between two words.
GLUED = re.compile(r"([^\W\d_]{2,})(?:[.:;!,]|'(?=[^\W\d_]{3}))([^\W\d_]{2,})")
# Our own "AI-generated" mark is not caption text (OCR reads its "I" as "l").
MARK_WORDS = re.compile(r"\bA[Il1|]?[- ]?gener[a-z]*ted\b", re.IGNORECASE)
INSTALL_HINT = "install it with: apt-get install tesseract-ocr tesseract-ocr-eng"

Mask = npt.NDArray[np.bool_]
Box = tuple[int, int, int, int]  # left, top, width, height in image pixels


class TesseractMissing(RuntimeError):
    """The tesseract program (or its English data) is not installed."""


@dataclass(frozen=True)
class OcrLine:
    text: str
    box: Box  # upright rectangle around the text, turned or not
    confidence: float  # 0..100, mean over the line's words
    angle: float = 0.0  # degrees the text is turned counter-clockwise
    upright_size: tuple[int, int] = (0, 0)  # width and height were the text level, in image pixels


@dataclass(frozen=True)
class OcrBlock:
    text: str  # the block's lines joined by spaces
    bbox: Box
    lines: tuple[OcrLine, ...]

    @property
    def confidence(self) -> float:
        return sum(line.confidence for line in self.lines) / len(self.lines)

    @property
    def angle(self) -> float:
        return sum(line.angle for line in self.lines) / len(self.lines)

    @property
    def upright_size(self) -> tuple[int, int]:
        """The block's width and height were its text level: the widest line,
        and the lines' heights stacked."""
        return (
            max(line.upright_size[0] for line in self.lines),
            sum(line.upright_size[1] for line in self.lines),
        )


@dataclass(frozen=True)
class TextRegion:
    """A patch of letters of one tone (a caption block, usually) and their size."""

    box: Box  # in image pixels
    mask: Mask  # letter pixels inside ``box``
    letter_height: float  # median letter height in pixels
    blobs: int  # letter-sized blobs: one per letter for a fill, a few for an outline


# --- finding letters ---------------------------------------------------------


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


# --- tesseract ---------------------------------------------------------------


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


def tesseract_words(picture: Image.Image) -> dict[str, list[Any]]:
    """Tesseract's word table for ``picture``, with a clear error when it is not installed."""
    try:
        data: dict[str, list[Any]] = pytesseract.image_to_data(
            picture, lang="eng", config=TESSERACT_CONFIG, output_type=pytesseract.Output.DICT
        )
    except pytesseract.TesseractNotFoundError:
        raise TesseractMissing(
            f"OCR needs the tesseract program, which is not installed; {INSTALL_HINT}"
        ) from None
    except pytesseract.TesseractError as error:
        if "eng" in str(error) or "language" in str(error).lower():
            raise TesseractMissing(f"tesseract has no English data; {INSTALL_HINT}") from None
        raise
    return data


@dataclass(frozen=True)
class Word:
    text: str
    box: Box  # in page pixels, where its region's text is level
    confidence: float
    region: int  # index of the region it was read in: lines never span two


def page_words(picture: Image.Image, placements: Sequence[Placement]) -> list[Word]:
    """Words Tesseract reads on the page (boxes in page pixels)."""
    data = tesseract_words(picture)
    words = []
    for index, text in enumerate(data["text"]):
        if str(text).strip() and float(data["conf"][index]) >= 0:
            box = (
                int(data["left"][index]),
                int(data["top"][index]),
                int(data["width"][index]),
                int(data["height"][index]),
            )
            region, _ = to_image(box, placements)
            words.append(Word(str(text).strip(), box, float(data["conf"][index]), region))
    return words


def group_words(words: Sequence[Word]) -> list[list[Word]]:
    """Words of one region side by side on one row are one line, left to right.
    (Sparse-text mode reads every word on its own; lines are rebuilt here.)"""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda word: (word.box[0], word.box[1])):
        home = next(
            (line for line in lines if line[-1].region == word.region and same_line(line[-1].box, word.box)),
            None,
        )
        if home is None:
            lines.append([word])
        else:
            home.append(word)
    return lines


def same_line(left_word: Box, right_word: Box) -> bool:
    """Words of one region whose middles each lie within the other's rows are
    one line: the region's letters are linked, so no gap between them is a gap
    between captions. (Overlap alone is not enough: caption lines are set
    tight, and a tall word of one line overlaps half of the next.)"""
    return middle_within(left_word, right_word) and middle_within(right_word, left_word)


def middle_within(word: Box, other: Box) -> bool:
    middle = word[1] + word[3] / 2
    return other[1] <= middle <= other[1] + other[3]


def without_repeats(words: Sequence[Word]) -> list[Word]:
    """Sparse-text mode sometimes reads one stretch of ink twice ("DELE" and
    "ETING" over "DELETING"): of words mostly on top of each other, the more
    confident stays."""
    kept: list[Word] = []
    for word in sorted(words, key=lambda word: -word.confidence):
        if all(overlap_ratio(word.box, other.box) <= 0.5 for other in kept):
            kept.append(word)
    return sorted(kept, key=lambda word: word.box[0])


def line_from_words(words: Sequence[Word], placements: Sequence[Placement]) -> OcrLine | None:
    """The cleaned line of ``words``, its box in image pixels (None when only junk was read)."""
    words = without_repeats(words)
    left = min(word.box[0] for word in words)
    top = min(word.box[1] for word in words)
    right = max(word.box[0] + word.box[2] for word in words)
    bottom = max(word.box[1] + word.box[3] for word in words)
    region, box = to_image((left, top, right - left, bottom - top), placements)
    line = clean_line([(word.text, word.confidence) for word in words], box)
    if line is None:
        return None
    scale = placements[region].scale
    upright = (round((right - left) / scale), round((bottom - top) / scale))
    return replace(line, angle=placements[region].angle, upright_size=upright)


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


# --- junk filtering ----------------------------------------------------------


def clean_word(word: str) -> str:
    """The word without characters no caption uses (OCR's |, ~, «, _ and the like)."""
    if word in ("|", "l", "[", "]"):  # a lone capital I, as Tesseract often reads it
        return "I"
    # Tesseract reads straight quotes as curly ones about as often as not; captions are typed straight.
    word = word.translate(STRAIGHT_QUOTES)
    return "".join(char for char in word if char.isalnum() or char in CAPTION_PUNCTUATION)


def split_glued(words: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    """Words split where OCR glued two together through a speck between them
    ("OF.DUTY", "THE!FIREPLACE"): a stop between two runs of 2+ letters."""
    return [(part, confidence) for word, confidence in words for part in GLUED.sub(r"\1 \2", word).split()]


def is_unknown_short_word(word: str) -> bool:
    """Three letters or fewer and not a common short word: what texture reads as ("yp", "ane")."""
    core = "".join(char for char in word if char.isalnum())
    return len(core) <= 3 and core.upper() not in COMMON_SHORT_WORDS and not core.isdigit()


def rare_or_odd(word: str) -> bool:
    """A rare short word, or a short one in no consistent case ("oN")."""
    return is_unknown_short_word(word) or (len(word) <= 3 and not looks_like_a_word(word))


def looks_like_a_word(word: str) -> bool:
    """Letters in one consistent case (WORD, word, Word) or a number."""
    core = word.strip("".join(CAPTION_PUNCTUATION))
    if not core:
        return False
    if core.isdigit():
        return True
    return core.isalpha() and (core.isupper() or core.islower() or core.istitle()) and len(core) >= 2


def clean_line(words: Sequence[tuple[str, float]], box: Box) -> OcrLine | None:
    """The line with junk words removed, or None when nothing worth keeping is left."""
    kept = []
    for word, confidence in split_glued(words):
        word = clean_word(unicodedata.normalize("NFC", word))
        if not any(char.isalnum() for char in word):
            continue
        if confidence < MIN_WORD_CONFIDENCE and not looks_like_a_word(word):
            continue
        kept.append((word, confidence))
    kept = without_texture(kept)
    if not kept:
        return None
    text = " ".join(MARK_WORDS.sub("", " ".join(word for word, _ in kept)).split())
    confidence = sum(confidence for _, confidence in kept) / len(kept)
    if sum(char.isalnum() for char in text) < 2:
        return None
    if confidence < MIN_LINE_CONFIDENCE and not all(looks_like_a_word(word) for word, _ in kept):
        return None
    return OcrLine(text, box, round(confidence, 1))


def without_texture(words: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """Texture reads as rare short words with low confidence ("yp", "Ss", a trailing
    "ve"). A line of nothing else goes; in a real line such a word stays only
    when its case matches the line's (TOP in "TOP TEXT", not ve in "IS COMING ve")."""

    def doubtful(word: str, confidence: float) -> bool:
        return confidence < MIN_SHORT_WORD_CONFIDENCE and is_unknown_short_word(word)

    if all(doubtful(word, confidence) for word, confidence in words):
        return []
    # A few rare short words, however confident one of them is, read together
    # with little confidence: a patch of texture ("wa wat oN" on bricks).
    mean_confidence = sum(confidence for _, confidence in words) / len(words)
    if mean_confidence < MIN_SHORT_WORD_CONFIDENCE and all(rare_or_odd(word) for word, _ in words):
        return []
    letters = [char for word, _ in words for char in word if char.isalpha()]
    upper_line = sum(char.isupper() for char in letters) > len(letters) / 2
    return [
        (word, confidence)
        for word, confidence in words
        if not doubtful(word, confidence) or (word.isupper() == upper_line and not word.isdigit())
    ]


# --- reading -----------------------------------------------------------------


def read_text(image: Image.Image) -> list[OcrLine]:
    """Lines of text in the image in reading order (blocks top to bottom, lines
    within a block in order, turned text included), boxes in image pixels."""
    regions = reading_order(text_regions(image))
    if not regions:
        return []
    page, placements = compose_page(regions)
    # Page order is reading order: regions top to bottom, lines level within each.
    grouped = sorted(
        group_words(page_words(page, placements)), key=lambda line: (line[0].box[1], line[0].box[0])
    )
    return [line for words in grouped if (line := line_from_words(words, placements)) is not None]


def area_ratio(first: Box, second: Box) -> float:
    """The smaller box's area over the larger's."""
    areas = sorted((first[2] * first[3], second[2] * second[3]))
    return areas[0] / max(areas[1], 1)


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


def vertical_share(first: Box, second: Box) -> float:
    """Rows two boxes share, over the taller box's height: a one-line region
    beside a two-line one is not on the same row as all of it."""
    shared = min(first[1] + first[3], second[1] + second[3]) - max(first[1], second[1])
    return max(0, shared) / max(1, first[3], second[3])


def overlap_ratio(first: Box, second: Box) -> float:
    """Intersection area over the smaller box's area."""
    width = min(first[0] + first[2], second[0] + second[2]) - max(first[0], second[0])
    height = min(first[1] + first[3], second[1] + second[3]) - max(first[1], second[1])
    if width <= 0 or height <= 0:
        return 0.0
    smaller = min(first[2] * first[3], second[2] * second[3])
    return width * height / max(smaller, 1)


def read_blocks(image: Image.Image) -> list[OcrBlock]:
    """Lines grouped into blocks of text (one caption each), top to bottom."""
    return group_blocks(read_text(image))


def group_blocks(lines: Sequence[OcrLine]) -> list[OcrBlock]:
    """Consecutive lines that sit right under each other, overlap horizontally
    and have similar heights form one block."""
    blocks: list[list[OcrLine]] = []
    for line in sorted(lines, key=lambda line: (line.box[1], line.box[0])):
        home = next((block for block in blocks if continues(block[-1], line)), None)
        if home is None:
            blocks.append([line])
        else:
            home.append(line)
    return [make_block(block) for block in blocks]


def continues(above: OcrLine, below: OcrLine) -> bool:
    """The line below carries on the block of the line above: right under it,
    overlapping it across, of a similar height; turned lines are compared as
    if turned level, and only with lines turned the same way."""
    if above.angle or below.angle:
        if abs(above.angle - below.angle) > MIN_SKEW:
            return False
        return stacked(levelled(above, above.angle), levelled(below, above.angle))
    return stacked(above.box, below.box)


def stacked(above: Box, below: Box) -> bool:
    left_a, top_a, width_a, height_a = above
    left_b, top_b, width_b, height_b = below
    gap = top_b - (top_a + height_a)  # pixels between the lines
    shared = min(left_a + width_a, left_b + width_b) - max(left_a, left_b)
    similar = max(height_a, height_b) <= 1.6 * max(1, min(height_a, height_b))
    return -0.5 * height_a <= gap <= 0.8 * max(height_a, height_b) and shared > 0 and similar


def levelled(line: OcrLine, angle: float) -> Box:
    """The line's box in a frame turned with its text (its upright size around
    its centre turned by -angle), so stacked lines read as they would level."""
    radians = np.radians(angle)
    x = line.box[0] + line.box[2] / 2
    y = line.box[1] + line.box[3] / 2
    across = x * np.cos(radians) - y * np.sin(radians)  # along the text (y points down)
    down = x * np.sin(radians) + y * np.cos(radians)
    width, height = line.upright_size
    return (round(across - width / 2), round(down - height / 2), width, height)


def make_block(lines: Sequence[OcrLine]) -> OcrBlock:
    left = min(line.box[0] for line in lines)
    top = min(line.box[1] for line in lines)
    right = max(line.box[0] + line.box[2] for line in lines)
    bottom = max(line.box[1] + line.box[3] for line in lines)
    return OcrBlock(
        " ".join(line.text for line in lines), (left, top, right - left, bottom - top), tuple(lines)
    )


def edit_distance(first: str, second: str) -> int:
    """Levenshtein distance in characters: the numerator of a character error rate."""
    previous = list(range(len(second) + 1))
    for row, char in enumerate(first, start=1):
        current = [row]
        for column, other in enumerate(second, start=1):
            current.append(min(previous[column] + 1, current[-1] + 1, previous[column - 1] + (char != other)))
        previous = current
    return previous[-1]
