"""OCR round trip: render known captions, read them back, report the character error rate.

    .venv/bin/python bench/ocr_roundtrip.py \\
        --templates /work/shared/datasets/memegen-templates \\
        --cases /work/shared/eval/render-cases.json [--count 200] [--offset 0]

Takes every 10th case from ``--offset`` (0 for the reported figure; the OCR
settings were tuned on offset 5, a disjoint set). The reference is the text as
drawn (styled, wrapped lines joined by spaces). Each line read is given to the
box whose rectangle holds its centre; text read outside every box counts as
inserted characters, except our own "AI-generated" mark and lines lying where
the blank template alone already reads as text ("CHANGE MY MIND" on the cmm
sign, shapes of a drawing): that is the template's, not the caption's.
CER = (edits + inserted characters) / reference characters, over all cases.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.render_cases import template_files
from generation.ocr import Box, OcrLine, overlap_ratio, read_text
from generation.ocr.metrics import edit_distance
from generation.render import Laid, layout_boxes, load_template, render_meme


def region(item: Laid) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) pixels the box's text can land in, turned boxes included."""
    left, top, width, height = item.rect
    if not item.box.angle:
        return left, top, left + width, top + height
    radians = math.radians(item.box.angle)
    turned_w = abs(width * math.cos(radians)) + abs(height * math.sin(radians))
    turned_h = abs(width * math.sin(radians)) + abs(height * math.cos(radians))
    return left, top, left + turned_w, top + turned_h


def printed_on_template(line: OcrLine, template_lines: list[OcrLine]) -> bool:
    """The line lies where the template alone already reads as text (a sign, a
    logo, a drawing OCR takes for letters): not caption text, right or wrong."""
    return any(same_place(line.box, other.box) for other in template_lines)


def same_place(first: Box, second: Box) -> bool:
    """Boxes sharing over half their union: the template's text read again. (A
    turned caption line's box is big and may cover a small template word.)"""
    shared = overlap_ratio(first, second) * min(first[2] * first[3], second[2] * second[3])
    union = first[2] * first[3] + second[2] * second[3] - shared
    return shared > 0.5 * max(union, 1)


def assign(
    lines: list[OcrLine],
    laid: list[Laid],
    mark: tuple[int, int, int, int] | None,
    template_lines: list[OcrLine],
) -> tuple[list[str], str]:
    """Text read per box (lines in reading order) and the text read outside every
    box; our own mark and the template's own text are left out (read right, no error)."""
    per_box: list[list[str]] = [[] for _ in laid]
    stray: list[str] = []
    for line in lines:
        if printed_on_template(line, template_lines):
            continue
        x = line.box[0] + line.box[2] / 2
        y = line.box[1] + line.box[3] / 2
        if mark and mark[0] <= x <= mark[0] + mark[2] and mark[1] <= y <= mark[1] + mark[3]:
            continue
        for index, item in enumerate(laid):
            left, top, right, bottom = region(item)
            if item.fit and left <= x <= right and top <= y <= bottom:
                per_box[index].append(line.text)
                break
        else:
            stray.append(line.text)
    return [" ".join(texts) for texts in per_box], " ".join(stray)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--templates", required=True)
    parser.add_argument("--cases", required=True)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--show", type=int, default=8, help="print the N worst cases")
    args = parser.parse_args()
    cases = json.loads(Path(args.cases).read_text(encoding="utf-8"))[args.offset :: 10][: args.count]
    totals = {"reference": 0, "errors": 0, "upright_reference": 0, "upright_errors": 0}
    timings, worst = [], []
    template_text: dict[str, list[OcrLine]] = {}
    for number, case in enumerate(cases):
        image_path, boxes = template_files(Path(args.templates), case["memegen_key"])
        template = load_template(image_path, 800)
        if case["memegen_key"] not in template_text:
            template_text[case["memegen_key"]] = read_text(template)
        texts = case["lines"][: len(boxes)]
        rendered = render_meme(template, boxes, texts)
        laid = layout_boxes(template.size, boxes, texts)  # the picture, without any band below it
        started = time.perf_counter()
        lines = read_text(rendered.image)
        timings.append(time.perf_counter() - started)
        read, stray = assign(lines, laid, rendered.mark_box, template_text[case["memegen_key"]])
        reference = [" ".join(item.fit.lines) if item.fit else "" for item in laid]
        errors = sum(edit_distance(want, got) for want, got in zip(reference, read, strict=True)) + len(stray)
        length = sum(len(text) for text in reference)
        upright = all(not item.box.angle for item in laid if item.fit)
        totals["reference"] += length
        totals["errors"] += errors
        if upright:
            totals["upright_reference"] += length
            totals["upright_errors"] += errors
        worst.append((errors / max(length, 1), number, case["memegen_key"], reference, read, stray))
    print(f"cases: {len(cases)}  reference characters: {totals['reference']}")
    print(f"CER: {totals['errors'] / totals['reference']:.2%}")
    print(f"CER, upright boxes only: {totals['upright_errors'] / max(totals['upright_reference'], 1):.2%}")
    median, mean = statistics.median(timings) * 1000, statistics.mean(timings) * 1000
    print(f"OCR ms per image: median {median:.0f}, mean {mean:.0f}")
    for rate, number, key, reference, read, stray in sorted(worst, reverse=True)[: args.show]:
        print(f"  {rate:.0%} case {number} ({key}): want {reference} got {read} stray {stray!r}")


if __name__ == "__main__":
    main()
