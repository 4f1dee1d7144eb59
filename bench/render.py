"""Rendering and OCR speed, single process: prints figures, is not a test.

    .venv/bin/python bench/render.py [--templates DIR] [--key drake] [--seconds 5]

Memes per second for a 2-box caption on an 800 px template (decoded and
resized once, as a worker keeps it): drawing only, with the feed's encodings,
and with the JPEG plus the lighter WebP copies pages offer
(generation.render.variants), measured side by side in alternating slices so a
machine that slows down mid-run slows them alike; then what each encoder would
cost for a copy (ms and KB on the demo pack's 20 templates, at 800 and 600 px); then OCR
milliseconds per rendered meme. ``--templates`` defaults to the templates kept
with the tests (memegen layout: <key>/config.yml and default.*).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.render_cases import template_files
from generation.ocr import read_text
from generation.render import encode_meme, load_template, render_meme
from generation.render.variants import RESAMPLE, encode_variant, variant_widths

CAPTIONS = [
    ["when the code compiles", "on the first try"],
    ["one does not simply", "deploy on a friday afternoon without tests"],
    ["writing tests after", "writing tests first"],
    ["me explaining my code", "the code"],
]


SLICE = 0.5  # seconds per action per turn; the actions take turns until each has had its share


def rates(actions: dict[str, Callable[[int], object]], seconds: float) -> dict[str, float]:
    """Calls per second of each action over about ``seconds`` of wall time each, in alternating slices."""
    counts = {name: 0 for name in actions}
    spent = {name: 0.0 for name in actions}
    for action in actions.values():
        for warm in range(3):
            action(warm)
    while min(spent.values()) < seconds:
        for name, action in actions.items():
            started = time.perf_counter()
            while time.perf_counter() - started < SLICE:
                action(counts[name])
                counts[name] += 1
            spent[name] += time.perf_counter() - started
    return {name: counts[name] / spent[name] for name in actions}


def encoder_costs(memes: list[Image.Image]) -> None:
    """Milliseconds and kilobytes per meme for each way of encoding a copy, at full width and at 600 px."""
    encoders: dict[str, Callable[[Image.Image], bytes]] = {
        "JPEG q85 (the image)": lambda image: encode_meme(image, "jpeg"),
        "WebP q80 method 0 (copies)": lambda image: encode(image, "WEBP", quality=80, method=0),
        "WebP q80 method 2": lambda image: encode(image, "WEBP", quality=80, method=2),
        "AVIF q60 speed 10": lambda image: encode(image, "AVIF", quality=60, speed=10),
        "AVIF q60 speed 8": lambda image: encode(image, "AVIF", quality=60, speed=8),
    }
    for width in sorted({image.width for image in memes} | {600}, reverse=True):
        sized = [image if image.width == width else resized(image, width) for image in memes]
        for name, encoder in encoders.items():
            started = time.perf_counter()
            sizes = [len(encoder(image)) for image in sized]
            elapsed = (time.perf_counter() - started) / len(sized)
            print(
                f"  {width} px, {name:28} {statistics.mean(sizes) / 1000:5.1f} KB  {elapsed * 1000:6.1f} ms"
            )


def resized(image: Image.Image, width: int) -> Image.Image:
    return image.resize((width, round(image.height * width / image.width)), RESAMPLE)


def encode(image: Image.Image, fmt: str, **options: int) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def demo_memes(pack: Path) -> list[Image.Image]:
    """One meme per template of the demo pack, 800 px wide, with a 2-line caption."""
    memes: list[Image.Image] = []
    for folder in sorted(path for path in pack.iterdir() if path.is_dir()):
        image_path, boxes = template_files(pack, folder.name)
        texts = (CAPTIONS[len(memes) % len(CAPTIONS)] * 3)[: len(boxes)]
        memes.append(render_meme(load_template(image_path, 800), boxes, texts).image)
    return memes


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    default = Path(__file__).resolve().parent.parent / "tests" / "golden" / "templates"
    parser.add_argument("--templates", default=str(default))
    parser.add_argument("--key", default="gone", help="a template with two boxes (gone: 800×628 at 800 px)")
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time per figure")
    parser.add_argument("--ocr-images", type=int, default=12)
    parser.add_argument("--pack", default=str(default.parent.parent.parent / "demo" / "templates"))
    args = parser.parse_args()

    image_path, boxes = template_files(Path(args.templates), args.key)
    template = load_template(image_path, 800)
    print(f"template {args.key}: {template.width}×{template.height} px, {len(boxes)} boxes")

    def draw(number: int) -> object:
        return render_meme(template, boxes, CAPTIONS[number % len(CAPTIONS)])

    def caption(number: int) -> Image.Image:
        return render_meme(template, boxes, CAPTIONS[number % len(CAPTIONS)]).image

    def with_copies(number: int) -> object:
        image = caption(number)
        return encode_meme(image, "jpeg"), [
            encode_variant(image, width) for width in variant_widths(image.width)
        ]

    measured = rates(
        {
            "render only": caption,
            "render + jpeg": lambda number: encode_meme(caption(number), "jpeg"),
            "render + webp": lambda number: encode_meme(caption(number), "webp"),
            "render + jpeg + copies": with_copies,
        },
        args.seconds,
    )
    for name, per_second in measured.items():
        print(f"{name + ':':24} {per_second:6.1f} memes/s")
    ratio = measured["render + jpeg"] / measured["render + jpeg + copies"]
    extra = 1000 / measured["render + jpeg + copies"] - 1000 / measured["render + jpeg"]
    print(f"copies cost {extra:.1f} ms a meme: render + store takes {ratio:.2f}× the CPU")
    print("a copy's encoders, demo pack:")
    encoder_costs(demo_memes(Path(args.pack)))

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
