"""How often captions use a keyword typed with accents, as typed and as the product now
writes it (Latin letters with marks written plainly: generation.captions.keywords).

    .venv/bin/python bench/caption_keyword_accents.py [--per-prompt 10] [--seed 5]

Four trained templates × four keywords ("café", "jalapeño", "pokémon", "naïve"), the
shipped model and default sampling, the same seed for both ways. A caption uses the keyword
when it holds it as typed or in plain letters. Prints the count for each way.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memesite.settings")

import django

django.setup()

from anyascii import anyascii  # noqa: E402
from django.conf import settings  # noqa: E402

from generation.captions import keywords  # noqa: E402
from generation.captions.config import SamplingSettings  # noqa: E402
from generation.captions.model import load_caption_model  # noqa: E402
from generation.captions.types import CaptionRequest  # noqa: E402

TEMPLATES = ("Success-Kid", "Drake-Hotline-Bling", "Grumpy-Cat", "Y-U-No")
WORDS = ("café", "jalapeño", "pokémon", "naïve")


def used(per_prompt: int, seed: int, fold: Callable[[str], str]) -> tuple[int, int]:
    """Captions using their keyword, and captions written, with ``fold`` as the keywords' spelling."""
    with mock.patch.object(keywords, "in_plain_letters", fold):  # what clean_keywords calls
        model = load_caption_model(Path(settings.CAPTION_MODEL_DIR))
        hits = total = 0
        for template in TEMPLATES:
            for word in WORDS:
                request = CaptionRequest(template, 2, [word], [], per_prompt)
                for caption in model.write([request], SamplingSettings(), rng_seed=seed):
                    text = " ".join(caption.boxes).lower()
                    hits += word in text or anyascii(word) in text
                    total += 1
        return hits, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-prompt", type=int, default=10)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    for label, fold in (("as typed", lambda word: word), ("in plain letters", keywords.in_plain_letters)):
        hits, total = used(args.per_prompt, args.seed, fold)
        print(f"{label:>17}: keyword used in {hits} of {total} captions ({hits / total:.0%})")


if __name__ == "__main__":
    main()
