"""Rendering and OCR speed, single process: prints figures, is not a test.

    .venv/bin/python bench/render.py [--templates DIR] [--key drake] [--seconds 5]

Memes per second for a 2-box caption on an 800 px template (decoded and
resized once, as a worker keeps it), drawing only and with encoding; then OCR
milliseconds per rendered meme. ``--templates`` defaults to the templates kept
with the tests (memegen layout: <key>/config.yml and default.*).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fit_check import template_files
from generation.ocr import read_text
from generation.render import ImageFormat, encode_meme, load_template, render_meme

CAPTIONS = [
    ["when the code compiles", "on the first try"],
    ["one does not simply", "deploy on a friday afternoon without tests"],
    ["writing tests after", "writing tests first"],
    ["me explaining my code", "the code"],
]


def rate(action: Callable[[int], object], seconds: float) -> float:
    """Calls of ``action`` per second over about ``seconds`` of wall time."""
    for warm in range(3):
        action(warm)
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        action(count)
        count += 1
    return count / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    default = Path(__file__).resolve().parent.parent / "tests" / "golden" / "templates"
    parser.add_argument("--templates", default=str(default))
    parser.add_argument("--key", default="gone", help="a template with two boxes (gone: 800×628 at 800 px)")
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time per figure")
    parser.add_argument("--ocr-images", type=int, default=12)
    args = parser.parse_args()

    image_path, boxes = template_files(Path(args.templates), args.key)
    template = load_template(image_path, 800)
    print(f"template {args.key}: {template.width}×{template.height} px, {len(boxes)} boxes")

    def draw(number: int) -> object:
        return render_meme(template, boxes, CAPTIONS[number % len(CAPTIONS)])

    print(f"render only:        {rate(draw, args.seconds):6.1f} memes/s")
    formats: tuple[ImageFormat, ...] = ("jpeg", "webp")
    for fmt in formats:

        def draw_and_encode(number: int, fmt: ImageFormat = fmt) -> object:
            return encode_meme(render_meme(template, boxes, CAPTIONS[number % len(CAPTIONS)]).image, fmt)

        print(f"render + {fmt:5}:     {rate(draw_and_encode, args.seconds):6.1f} memes/s")

    memes = [render_meme(template, boxes, CAPTIONS[n % len(CAPTIONS)]).image for n in range(args.ocr_images)]
    timings = []
    for meme in memes:
        started = time.perf_counter()
        read_text(meme)
        timings.append((time.perf_counter() - started) * 1000)
    print(
        f"OCR: median {statistics.median(timings):.0f} ms, mean {statistics.mean(timings):.0f} ms per image"
    )


if __name__ == "__main__":
    main()
