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
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generation.layout import TextBox, memegen_boxes
from generation.render import (
    Laid,
    contains,
    drawn_ink,
    layout_boxes,
    load_template,
    readable_size,
    render_meme,
)

SHORT_CAPTION = 100  # characters: a caption shorter than this must never be drawn below the floor


def template_files(templates: Path, key: str) -> tuple[Path, list[TextBox]]:
    folder = templates / key
    image = next(path for path in sorted(folder.glob("default.*")))
    return image, memegen_boxes(
        yaml.safe_load((folder / "config.yml").read_text(encoding="utf-8")).get("text"), lenient_styles=True
    )


def ink_outside_box(item: Laid) -> bool:
    """Any ink pixel outside the box when its lines are drawn alone: the
    renderer's count, re-checked on pixels."""
    ink = drawn_ink(item)
    return ink is not None and not contains((0, 0, *item.rect[2:]), ink)


def percentile(values: list[int], fraction: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(args: argparse.Namespace) -> dict[str, Any]:
    cases = json.loads(Path(args.cases).read_text(encoding="utf-8"))[: args.limit]
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
    for number, case in enumerate(cases):
        image_path, boxes = template_files(Path(args.templates), case["memegen_key"])
        template = load_template(image_path, args.width)
        texts = case["lines"][: len(boxes)]
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
                small.append((item.fit.size, number, case["memegen_key"], text))
        if args.worst and any(0 < size < floor for size in rendered.font_sizes):
            rendered.image.save(Path(args.worst) / f"{number:04d}-{case['memegen_key']}.png")
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
    parser.add_argument("--templates", required=True, help="memegen templates folder (<key>/config.yml)")
    parser.add_argument("--cases", required=True, help="render-cases.json")
    parser.add_argument("--width", type=int, default=800, help="output width in pixels")
    parser.add_argument("--limit", type=int, default=None, help="only the first N cases")
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
