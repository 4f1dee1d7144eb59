"""Mark check: does the "AI-generated" mark ever cover caption text?

    .venv/bin/python bench/mark_check.py \\
        --templates /work/shared/datasets/memegen-templates \\
        --cases /work/shared/eval/render-cases.json [--width 800] [--limit N] \\
        [--position bottom-right] [--save DIR]

Each case is rendered twice, with the mark and without it. The caption's ink
is every pixel where the meme without the mark differs from the bare template
(fill and outline, rotated boxes included); a meme counts as covered when any
such pixel lies under the mark's rectangle. The mark goes in the corner the
importer would give the template (``mark_position_for``) unless --position
names one. Also counts where the mark went: its corner, elsewhere along the
picture's edges, or on a band added below the picture.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.render_cases import add_case_arguments, render_cases
from generation.render import MARK_POSITIONS, mark_position_for, render_meme
from generation.render.geometry import Rect
from generation.render.mark import MARK_MARGIN_FRACTION


def covered_pixels(text_ink: np.ndarray, mark: Rect) -> int:
    """Caption ink pixels under the mark (a mark on the band below covers none)."""
    x, y, width, height = mark
    return int(text_ink[max(0, y) : y + height, max(0, x) : x + width].sum())


def placement(mark: Rect, picture: tuple[int, int]) -> str:
    """Where the mark went: a corner of the picture, elsewhere along its edges, or below it."""
    if mark[1] >= picture[1]:
        return "band below the picture"
    margin = round(picture[0] * MARK_MARGIN_FRACTION)
    xs = (margin, picture[0] - margin - mark[2])
    ys = (margin, picture[1] - margin - mark[3])
    return "a corner" if mark[0] in xs and mark[1] in ys else "along an edge"


def run(args: argparse.Namespace) -> tuple[Counter[str], list[tuple[int, str, int]]]:
    counts: Counter[str] = Counter()
    covering: list[tuple[int, str, int]] = []
    for case in render_cases(args):
        template, boxes, texts = case.template, case.boxes, case.texts
        position = args.position or mark_position_for(boxes)
        plain = render_meme(template, boxes, texts, width=args.width, mark_text="")
        marked = render_meme(template, boxes, texts, width=args.width, mark_position=position)
        assert marked.mark_box is not None
        text_ink = (np.asarray(plain.image) != np.asarray(template)).any(axis=-1)  # (H, W) bool
        hidden = covered_pixels(text_ink, marked.mark_box)
        counts["cases"] += 1
        counts["covering text"] += hidden > 0
        counts[placement(marked.mark_box, template.size)] += 1
        if hidden:
            covering.append((case.number, case.key, hidden))
        if args.save and (hidden or marked.band or case.number < args.save_first):
            marked.image.save(Path(args.save) / f"{case.number:04d}-{case.key}.png")
    return counts, covering


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_case_arguments(parser)
    parser.add_argument("--position", choices=MARK_POSITIONS, default=None, help="the corner asked for")
    parser.add_argument("--save", default="", help="folder for memes whose mark covers text or is on a band")
    parser.add_argument("--save-first", type=int, default=0, help="also save the first N memes")
    args = parser.parse_args()
    started = time.perf_counter()
    counts, covering = run(args)
    cases = counts["cases"]
    for key in ("cases", "covering text", "a corner", "along an edge", "band below the picture"):
        print(f"{key}: {counts[key]} ({counts[key] / cases:.1%})" if key != "cases" else f"cases: {cases}")
    for number, key, hidden in covering[:10]:
        print(f"  covers {hidden} ink pixels: case {number} ({key})")
    print(f"seconds: {time.perf_counter() - started:.0f}")


if __name__ == "__main__":
    main()
