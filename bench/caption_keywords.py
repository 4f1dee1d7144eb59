"""How the product's captions use the keywords they are asked for, beside people's captions.

    .venv/bin/python bench/caption_keywords.py --data lab/runs/data [--prompts 300] [--candidates 8,4,1]
        [--variant NAME:setting=value,...] [--threads 1]

Prompts: held-out human captions of templates the model knows, each giving 1-3 of its own
keywords (as evaluate_captions does). For people, the caption those keywords came from; for the
product, ``CaptionModel.write`` with each sampler variant and candidates value (the captions drawn
per caption shown: ``keyword_candidates``, as every prompt has keywords), side by side on the
same prompts and seed, with the seconds each took. The variants are "before" (a keyword may be
a box on its own, as the sampler was until it held such boxes open), "now" (the default
settings) and any ``--variant`` (SamplingSettings fields, e.g. ``--variant
half:keyword_start_share=0.5``). Printed per source:

  used          share of captions using at least one requested keyword
  all used      share using every requested keyword
  bare box      share with a box that is only a requested keyword ("coffee | coffee to my coffee")
  per request   requested keywords used, on average
  opens box     share with a box whose first word is a requested keyword (fine when more follows)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

os.environ.setdefault(
    "OMP_WAIT_POLICY", "PASSIVE"
)  # see train_captions: spinning threads thrash a shared CPU
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generation.captions import CaptionRequest, SamplingSettings
from generation.captions.keywords import keyword_form, uses_keyword
from generation.captions.model import load_caption_model
from generation.captions.rerank import is_bare_keyword
from generation.captions.text import WORD, Caption, caption_text, normalize_caption
from lab.captions.data import load_memes
from lab.captions.judgement import keyword_prompts


def figures(captions: list[tuple[Caption, list[str]]]) -> dict[str, float]:
    used = [[uses_keyword(caption_text(boxes), k) for k in keywords] for boxes, keywords in captions]
    n = max(1, len(captions))

    def share_with_a_box(test: Callable[[str, list[str]], bool]) -> float:
        return sum(any(test(box, keywords) for box in boxes) for boxes, keywords in captions) / n

    return {
        "used": sum(any(u) for u in used) / n,
        "all used": sum(all(u) for u in used) / n,
        "bare box": share_with_a_box(is_bare_keyword),
        "per request": sum(sum(u) / len(u) for u in used) / n,
        "opens box": share_with_a_box(opens_with_keyword),
    }


def opens_with_keyword(box: str, keywords: list[str]) -> bool:
    first = WORD.findall(box.lower())[:1]
    return bool(first) and any(keyword_form(first[0]) == keyword_form(k) or first[0] == k for k in keywords)


BUILT_IN = {"before": "bare_keyword_boxes=true keyword_start_share=1.0", "now": ""}


def variant(spec: str) -> tuple[str, str]:
    """ "name:field=value,field=value" as a name and its SamplingSettings changes."""
    name, _, changes = spec.partition(":")
    return name, changes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", default="lab/runs/data", help="prepare_captions output (val/ is read)")
    parser.add_argument("--model", default="models/captions")
    parser.add_argument("--prompts", type=int, default=300)
    parser.add_argument("--candidates", default="8,4,1", help="the first is the site's setting")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--variant", action="append", default=[], help="NAME:field=value,... (repeatable)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0 = torch's default)")
    args = parser.parse_args()
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    variants = BUILT_IN | dict(variant(spec) for spec in args.variant)

    model = load_caption_model(Path(args.model))
    memes = load_memes(Path(args.data) / "val")
    held_out = {s: [c for raw in caps if (c := normalize_caption(raw))] for s, caps in memes.items()}
    prompts = keyword_prompts(held_out, model, args.prompts, random.Random(args.seed))
    rows = {"human": figures([(boxes, keywords) for _, boxes, keywords in prompts])}
    seconds: dict[str, float] = {}
    requests = [CaptionRequest(slug, len(boxes), keywords, n=1) for slug, boxes, keywords in prompts]
    for candidates in (int(c) for c in args.candidates.split(",")):
        for name, changes in variants.items():
            settings = replace(SamplingSettings().changed(changes), keyword_candidates=candidates)
            started = time.perf_counter()
            written = model.write(requests, settings, rng_seed=args.seed)
            seconds[f"{name}, {candidates} cand."] = time.perf_counter() - started
            rows[f"{name}, {candidates} cand."] = figures([(c.boxes, c.keywords) for c in written])
    print(f"{len(prompts)} keyword prompts from held-out captions of known templates")
    print(f"{'':>26} " + " ".join(f"{name:>12}" for name in next(iter(rows.values()))))
    for source, values in rows.items():
        print(f"{source:>26} " + " ".join(f"{v:>12.1%}" for v in values.values()))
    print("seconds to write them (one run each, side by side):")
    for source, taken in seconds.items():
        print(f"{source:>26} {taken:>8.1f} s  {len(prompts) / taken:>6.1f} captions/s")


if __name__ == "__main__":
    main()
