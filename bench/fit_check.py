"""Fit check: render real captions onto their templates and count what went wrong.

    .venv/bin/python bench/fit_check.py \\
        --templates /work/shared/datasets/memegen-templates \\
        --cases /work/shared/eval/render-cases.json [--width 800] [--limit N] [--worst DIR]

Reports boxes whose ink leaves the box (counted by the renderer from glyph
boxes, then checked again here on real pixels), tofu glyphs, characters no
shipped face has, and the distribution of font sizes in pixels.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.render_cases import add_case_arguments, render_cases
from generation.render import (
    Laid,
    contains,
    drawn_ink,
    layout_boxes,
    readable_size,
    render_meme,
)

SHORT_CAPTION = 100  # characters: a caption shorter than this must never be drawn below the floor


def ink_outside_box(item: Laid) -> bool:
    """Any ink pixel outside the box when its lines are drawn alone: the
    renderer's count, re-checked on pixels."""
    ink = drawn_ink(item)
    return ink is not None and not contains((0, 0, *item.rect[2:]), ink)


def percentile(values: list[int], fraction: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(args: argparse.Namespace) -> dict[str, Any]:
    floor = readable_size(args.width)
    sizes: list[int] = []
    short_sizes: list[int] = []
    counts = (
        "cases",
        "boxes",
        "overflow",
        "pixel_overflow",
        "missing_glyphs",
        "dropped_chars",
        "grown_boxes",
    )
    totals = dict.fromkeys(counts, 0)
    small: list[tuple[int, int, str, str]] = []
    started = time.perf_counter()
    for case in render_cases(args):
        template, boxes, texts = case.template, case.boxes, case.texts
        rendered = render_meme(template, boxes, texts, width=args.width)
        totals["cases"] += 1
        totals["overflow"] += rendered.overflow
        totals["missing_glyphs"] += rendered.missing_glyphs
        totals["dropped_chars"] += rendered.dropped_chars
        totals["grown_boxes"] += rendered.grown_boxes
        for item in layout_boxes(template.size, boxes, texts):
            if item.fit is None:
                continue
            totals["boxes"] += 1
            totals["pixel_overflow"] += ink_outside_box(item)
            sizes.append(item.fit.size)
            text = " ".join(item.fit.lines)
            if len(text) < SHORT_CAPTION:
                short_sizes.append(item.fit.size)
            if item.fit.size < floor:
                small.append((item.fit.size, case.number, case.key, text))
        if args.worst and any(0 < size < floor for size in rendered.font_sizes):
            rendered.image.save(Path(args.worst) / f"{case.number:04d}-{case.key}.png")
    elapsed = time.perf_counter() - started
    return {
        **totals,
        "floor_px": floor,
        "size_min": min(sizes),
        "size_p5": percentile(sizes, 0.05),
        "size_median": int(statistics.median(sizes)),
        "size_p95": percentile(sizes, 0.95),
        "under_18px_share": sum(size < 18 for size in sizes) / len(sizes),
        "under_floor": len(small),
        "short_caption_min": min(short_sizes),
        "short_captions_under_floor": sum(size < floor for size in short_sizes),
        "smallest": sorted(small)[:5],
        "seconds": f"{elapsed:.0f}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_case_arguments(parser)
    parser.add_argument("--worst", default="", help="folder to save memes with a box under the floor")
    report = run(parser.parse_args())
    for key, value in report.items():
        if key == "smallest":
            for size, number, template, text in value:
                print(f"  smallest: {size} px  case {number} ({template}, {len(text)} chars): {text[:70]}")
        elif isinstance(value, float):
            print(f"{key}: {value:.2%}")
        else:
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
