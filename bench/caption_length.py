"""How long the product's captions are, and what their length costs, beside people's captions.

    .venv/bin/python bench/caption_length.py --data lab/runs/data [--prompts 150] [--n 4]
        [--variant NAME:setting=value,...] [--seed 21] [--threads 1]

Prompts: templates and box counts of held-out human captions of templates the model knows; each
asks for ``--n`` captions, as a generation job does. For people, the held-out caption each
prompt came from and n - 1 more of its template and box count; for the product,
``CaptionModel.write`` with each variant, side by side on the same prompts and seed. The
variants are "unbounded" (no end bonus and no length cost, as the sampler was before blind
judgement chose them), "now" (the default settings) and any ``--variant`` (SamplingSettings
fields, e.g. ``--variant short:end_bonus=3``). Printed per source:

  median, mean  characters of a caption, boxes joined by " | "
  <30, >=60     share of captions under 30 characters, and of 60 or more (the model's captions
                were rated coherent in 71% under 30 characters and 13% at 60-80)
  made-up       share of captions with a word seen fewer than 3 times in training
  unseen pairs  share of neighbouring word pairs never seen together in a training box
  distinct-2    distinct word pairs over all word pairs of the captions
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from pathlib import Path

os.environ.setdefault(
    "OMP_WAIT_POLICY", "PASSIVE"
)  # see train_captions: spinning threads thrash a shared CPU
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.caption_keywords import variant
from generation.captions import CaptionRequest, SamplingSettings
from generation.captions.model import load_caption_model
from generation.captions.rerank import Vocabulary, word_pairs
from generation.captions.text import Caption, caption_text, normalize_caption
from lab.captions.data import load_memes
from lab.captions.evaluate import nonword_share

BUILT_IN = {"unbounded": "end_bonus=0 length_cost=0", "now": ""}


def figures(captions: list[Caption], known: Vocabulary) -> dict[str, float]:
    lengths = [len(caption_text(boxes)) for boxes in captions]
    pairs = [pair for boxes in captions for box in boxes for pair in word_pairs(box)]
    n = max(1, len(captions))
    return {
        "median": statistics.median(lengths),
        "mean": statistics.fmean(lengths),
        "<30": sum(length < 30 for length in lengths) / n,
        ">=60": sum(length >= 60 for length in lengths) / n,
        "made-up": nonword_share([caption_text(boxes) for boxes in captions], known.words),
        "unseen pairs": sum(p not in known.pairs for p in pairs) / max(1, len(pairs)),
        "distinct-2": len(set(pairs)) / max(1, len(pairs)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", default="lab/runs/data", help="prepare_captions output (val/ is read)")
    parser.add_argument("--model", default="models/captions")
    parser.add_argument("--prompts", type=int, default=150)
    parser.add_argument("--n", type=int, default=4, help="captions per request, as a job asks")
    parser.add_argument("--seed", type=int, default=21)
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
    slugs = sorted(s for s, caps in held_out.items() if model.knows(s) and caps)
    rng = random.Random(args.seed)
    prompts = [(slug, rng.choice(held_out[slug])) for slug in rng.choices(slugs, k=args.prompts)]
    requests = [CaptionRequest(slug, len(boxes), n=args.n) for slug, boxes in prompts]
    rows = {"human": figures(people_like(prompts, held_out, args.n, rng), model.vocabulary)}
    for name, changes in variants.items():
        written = model.write(requests, SamplingSettings().changed(changes), rng_seed=args.seed)
        rows[name] = figures([c.boxes for c in written], model.vocabulary)
    print(f"{len(requests)} requests of {args.n} captions, held-out templates and box counts")
    print(f"{'':>12} " + " ".join(f"{name:>12}" for name in next(iter(rows.values()))))
    for source, values in rows.items():
        cells = [f"{v:>12.1f}" if k in ("median", "mean") else f"{v:>12.1%}" for k, v in values.items()]
        print(f"{source:>12} " + " ".join(cells))


def people_like(
    prompts: list[tuple[str, Caption]], held_out: dict[str, list[Caption]], n: int, rng: random.Random
) -> list[Caption]:
    """``n`` held-out captions per prompt with its template and box count: as many as the product
    writes, since distinct-2 falls as captions are added."""
    people: list[Caption] = []
    for slug, boxes in prompts:
        alike = [c for c in held_out[slug] if len(c) == len(boxes)]
        people += [boxes, *rng.sample(alike, min(n - 1, len(alike)))]
    return people


if __name__ == "__main__":
    main()
