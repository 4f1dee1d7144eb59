"""Captions per second: batched KV-cache sampling vs one-at-a-time ``model.generate()``.

    .venv/bin/python bench/captions.py [--model models/captions] [--batch 512] [--single 24] [--rounds 3]

Both use the same model, prompts (known templates, no keywords) and sampling settings (the
product's, SamplingSettings, unless --temperature, --top-k or --top-p say otherwise), in one
run on the same threads. Filters are off in both, so the figure is the sampler's own speed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault(
    "OMP_WAIT_POLICY", "PASSIVE"
)  # see train_captions: spinning threads thrash a shared CPU

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generation.captions.config import SamplingSettings
from generation.captions.model import CaptionModel, load_caption_model
from generation.captions.prompt import prompt_ids
from generation.captions.sample import Row, sample_boxes


def prompts(model: CaptionModel, count: int, seed: int) -> list[Row]:
    rng = random.Random(seed)
    slugs = sorted(model.ids.templates)
    return [
        Row(i, [], prompt_ids(model.ids, model.ids.template(slug), []), rng.choice([1, 2]))
        for i, slug in enumerate(rng.choices(slugs, k=count))
    ]


def batched(model: CaptionModel, rows: list[Row], settings: SamplingSettings) -> float:
    generator = torch.Generator().manual_seed(0)
    start = time.perf_counter()
    sample_boxes(model, rows, settings, generator)
    return len(rows) / (time.perf_counter() - start)


@torch.no_grad()
def one_at_a_time(model: CaptionModel, rows: list[Row], settings: SamplingSettings) -> float:
    torch.manual_seed(0)
    start = time.perf_counter()
    for row in rows:
        ids = torch.tensor([row.prompt], device=model.device)
        model.model.generate(
            ids,
            attention_mask=torch.ones_like(ids),
            do_sample=True,
            temperature=settings.temperature,
            top_k=settings.top_k,
            top_p=settings.top_p,
            max_new_tokens=settings.max_new_tokens,
            eos_token_id=model.ids.eos,
            pad_token_id=model.ids.pad,
        )
    return len(rows) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--model", default=str(Path(__file__).resolve().parent.parent / "models" / "captions")
    )
    parser.add_argument("--batch", type=int, default=512, help="captions per batched forward loop")
    parser.add_argument("--single", type=int, default=24, help="captions generated one at a time")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--temperature", type=float, default=None, help="default: SamplingSettings")
    parser.add_argument("--top-k", type=int, default=None)
    parser.add_argument("--top-p", type=float, default=None)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model = load_caption_model(Path(args.model), "cpu")
    settings = SamplingSettings()
    for name in ("temperature", "top_k", "top_p"):
        if getattr(args, name) is not None:
            setattr(settings, name, getattr(args, name))
    batched(model, prompts(model, 16, 1), settings)  # warm-up
    # Alternate the two a few times and keep medians: other work on a shared CPU comes and goes.
    fast = statistics.median(
        batched(model, prompts(model, args.batch, r), settings) for r in range(args.rounds)
    )
    slow = statistics.median(
        one_at_a_time(model, prompts(model, args.single, r), settings) for r in range(args.rounds)
    )
    params = sum(p.numel() for p in model.model.parameters()) / 1e6
    print(
        f"model {model.version}, {params:.2f}M params, {args.threads} threads, median of {args.rounds} rounds"
    )
    print(
        f"sampling: T={settings.temperature}, top-k={settings.top_k}, top-p={settings.top_p}, "
        f"max {settings.max_new_tokens} tokens"
    )
    print(f"batched KV-cache sampling ({args.batch} per loop): {fast:8.1f} captions/s")
    print(f"one-at-a-time generate():                {slow:8.1f} captions/s")
    print(f"ratio: {fast / slow:.1f}x")


if __name__ == "__main__":
    main()
