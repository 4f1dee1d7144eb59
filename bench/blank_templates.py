"""Blank templates from captioned memes: how much of the caption is left.

    .venv/bin/python bench/blank_templates.py [--templates DIR] [--keys a,b] [--show 5]
    .venv/bin/python bench/blank_templates.py --templates /work/shared/datasets/memegen-templates \
        --cases /work/shared/eval/render-cases.json --count 60

Each template of the demo pack (``demo/templates``, or ``--templates`` in
memegen's layout) is captioned by our own renderer at 800 px (no AI mark: an
upload from elsewhere has none) with its two first example captions, and
``make_blank_template`` turns the meme back into a blank template. Against the
clean template it reports (with ``--cases``, every Nth of those (memegen key,
real ImgFlip caption) cases instead, ``--count`` of them):

- caption pixels: where the caption changed the clean picture by over
  ``INK_LEVELS`` of 255 (letters, outline, their fringe);
- ink left: the share of those pixels the blank still differs from the clean
  template by over ``INK_LEVELS`` (letters missed, and smudges);
- PSNR over the caption pixels (dB; higher is closer to the clean picture);
- damage: the share of the other pixels changed by over ``INK_LEVELS``;
- words left: caption words (2+ letters) OCR still reads on the blank and does
  not read on the clean template (its own text, e.g. a sign, is not the caption's);
- missed: memes where no caption was found at all (everything left);
- boxes: how many boxes came back for how many boxes were given text.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generation.blank import NoTextFound, make_blank_template
from generation.layout import TextBox, apply_style, memegen_boxes
from generation.ocr import read_text
from generation.render import load_template, render_meme

DEMO = Path(__file__).resolve().parent.parent / "demo" / "templates"
WIDTH = 800  # pixels, as the feed draws memes
INK_LEVELS = 32  # of 255, on the channel that moved most: a difference plainly visible
WORD = re.compile(r"[a-z0-9']{2,}")


@dataclass(frozen=True)
class Case:
    key: str
    texts: list[str]
    caption_pixels: int
    ink_left: int
    psnr: float  # dB over the caption pixels
    damage: float  # share of the other pixels changed
    words: int
    words_left: list[str]
    seconds: float
    missed: bool
    boxes_drawn: int  # boxes given text
    boxes_found: int  # boxes the blank template came back with


def captions(config: dict[str, Any], box_count: int) -> list[list[str]]:
    """The template's memegen example and its first ImgFlip example, one text per box."""
    found: list[list[str]] = []
    for caption in (config.get("example"), *(config.get("examples") or [])[:1]):
        if isinstance(caption, list) and any(caption):
            found.append([str(text or "") for text in caption][:box_count])
    return found


def words(text: str) -> set[str]:
    return set(WORD.findall(text.lower().replace("’", "'")))


def changed(first: npt.NDArray[np.int16], second: npt.NDArray[np.int16]) -> npt.NDArray[np.bool_]:
    moved: npt.NDArray[np.bool_] = np.abs(first - second).max(axis=2) > INK_LEVELS  # (H, W)
    return moved


def psnr(first: npt.NDArray[np.int16], second: npt.NDArray[np.int16]) -> float:
    mean_square = float(((first.astype(float) - second) ** 2).mean()) if first.size else 0.0
    return 10 * float(np.log10(255**2 / max(mean_square, 1e-9)))


def measure(
    key: str, folder: Path, clean_words: dict[str, set[str]], given: list[list[str]] | None = None
) -> list[Case]:
    config = yaml.safe_load((folder / "config.yml").read_text(encoding="utf-8"))
    boxes: list[TextBox] = memegen_boxes(config.get("text"), lenient_styles=True)
    image_path = next(path for path in sorted(folder.iterdir()) if path.stem == "default")
    clean_image = load_template(image_path, WIDTH)
    clean = np.asarray(clean_image, dtype=np.int16)  # (H, W, 3)
    if key not in clean_words:
        clean_words[key] = {word for line in read_text(clean_image) for word in words(line.text)}
    cases = []
    for texts in given or captions(config, len(boxes)):
        texts = texts[: len(boxes)]
        meme_image = render_meme(clean_image, boxes, texts, width=WIDTH, mark_text="").image
        meme = np.asarray(meme_image, dtype=np.int16)
        started = time.perf_counter()
        try:
            made = make_blank_template(meme_image)
            blank_image, missed, found = made.image, False, len(made.boxes)
        except NoTextFound:
            blank_image, missed, found = meme_image, True, 0
        seconds = time.perf_counter() - started
        blank = np.asarray(blank_image, dtype=np.int16)
        ink = changed(meme, clean)
        left = ink & changed(blank, clean)
        drawn = {
            word
            for text, box in zip(texts, boxes, strict=False)
            for word in words(apply_style(text, box.style))
        }
        read = {word for line in read_text(blank_image) for word in words(line.text)}
        cases.append(
            Case(
                key=key,
                texts=texts,
                caption_pixels=int(ink.sum()),
                ink_left=int(left.sum()),
                psnr=psnr(blank[ink], clean[ink]),
                damage=float((changed(blank, clean) & ~ink).mean()),
                words=len(drawn),
                words_left=sorted((drawn & read) - clean_words[key]),
                seconds=seconds,
                missed=missed,
                boxes_drawn=sum(bool(text.strip()) for text in texts),
                boxes_found=found,
            )
        )
    return cases


def report(cases: list[Case], show: int) -> None:
    print(f"{'template':<14}{'caption px':>11}{'ink left':>10}{'PSNR dB':>9}{'damage':>8}  words left")
    for case in cases:
        left = " ".join(case.words_left) or "-"
        flag = "  (no caption found)" if case.missed else ""
        print(
            f"{case.key:<14}{case.caption_pixels:>11}{case.ink_left / max(case.caption_pixels, 1):>10.1%}"
            f"{case.psnr:>9.1f}{case.damage:>8.2%}  {left}{flag}"
        )
    pixels = sum(case.caption_pixels for case in cases)
    print()
    templates, missed = len({case.key for case in cases}), sum(case.missed for case in cases)
    print(f"memes: {len(cases)} from {templates} templates; no caption found in {missed}")
    print(f"ink left: {sum(case.ink_left for case in cases) / pixels:.2%} of {pixels:,} caption pixels")
    median = statistics.median(case.ink_left / max(case.caption_pixels, 1) for case in cases)
    print(f"ink left, median meme: {median:.2%}")
    print(f"PSNR over caption pixels, median meme: {statistics.median(case.psnr for case in cases):.1f} dB")
    print(f"damage outside the caption, mean: {statistics.mean(case.damage for case in cases):.3%} of pixels")
    words_total = sum(case.words for case in cases)
    words_left = sum(len(case.words_left) for case in cases)
    print(
        f"words OCR still reads: {words_left} of {words_total} ({words_left / words_total:.1%}) in "
        f"{sum(bool(case.words_left) for case in cases)} memes"
    )
    found, drawn = sum(c.boxes_found for c in cases), sum(c.boxes_drawn for c in cases)
    exact = sum(c.boxes_found == c.boxes_drawn for c in cases)
    print(
        f"boxes: {found} found for {drawn} captioned boxes; the right count in {exact} of {len(cases)} memes"
    )
    print(f"blank-template time per meme: median {statistics.median(c.seconds for c in cases) * 1000:.0f} ms")
    for case in sorted(cases, key=lambda c: c.ink_left / max(c.caption_pixels, 1), reverse=True)[:show]:
        print(f"  worst: {case.key} {case.texts}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--templates", type=Path, default=DEMO)
    parser.add_argument("--keys", default="", help="comma-separated template folders (default: all)")
    parser.add_argument("--show", type=int, default=5, help="list the N memes with the most ink left")
    parser.add_argument("--cases", type=Path, help="a JSON list of {memegen_key, lines} captions")
    parser.add_argument("--count", type=int, default=60)
    args = parser.parse_args()
    clean_words: dict[str, set[str]] = {}
    if args.cases:
        every = json.loads(args.cases.read_text(encoding="utf-8"))
        chosen = every[:: max(1, len(every) // args.count)][: args.count]
        report(
            [
                case
                for item in chosen
                for case in measure(
                    item["memegen_key"], args.templates / item["memegen_key"], clean_words, [item["lines"]]
                )
            ],
            args.show,
        )
        return
    keys = [key for key in args.keys.split(",") if key] or sorted(
        path.name for path in args.templates.iterdir() if (path / "config.yml").is_file()
    )
    cases = [case for key in keys for case in measure(key, args.templates / key, clean_words)]
    report(cases, args.show)


if __name__ == "__main__":
    main()
