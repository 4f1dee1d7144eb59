"""Captions per second: batched KV-cache sampling vs one-at-a-time ``model.generate()``.

    .venv/bin/python bench/captions.py [--model models/captions] [--batch 512] [--single 24] [--rounds 5]

Both use the same model, prompts (known templates, no keywords) and sampling settings (the
product's, SamplingSettings, unless --temperature, --top-k, --top-p, --template-guidance or
--guided-tokens say otherwise), in one run on the same threads. generate() gets transformers'
own classifier-free guidance with the same generic-template prompt, for as many tokens, ahead of
its temperature, top-k and top-p. Filters are off in both, so the figure is the sampler's own speed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, cast

os.environ.setdefault(
    "OMP_WAIT_POLICY", "PASSIVE"
)  # see train_captions: spinning threads thrash a shared CPU

import torch
from transformers import LogitsProcessorList, TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper
from transformers.generation.logits_process import UnbatchedClassifierFreeGuidanceLogitsProcessor

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generation.captions.config import SamplingSettings
from generation.captions.errors import SamplingError
from generation.captions.model import CaptionModel, load_caption_model
from generation.captions.prompt import prompt_ids
from generation.captions.sample import sample_boxes
from generation.captions.types import Row


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


class GuidedOpening(UnbatchedClassifierFreeGuidanceLogitsProcessor):
    """generate()'s classifier-free guidance, for the first ``tokens`` new tokens only, as the
    batched sampler guides (SamplingSettings.guided_tokens)."""

    def __init__(self, scale: float, model: Any, generic: torch.Tensor, tokens: int) -> None:
        super().__init__(scale, model, cast(torch.LongTensor, generic))
        self.end = generic.size(1) + tokens  # the generic prompt is as long as the prompt

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        if input_ids.size(1) >= self.end:
            return scores
        return super().__call__(input_ids, scores)  # type: ignore[no-untyped-call,no-any-return]  # untyped in transformers


def warpers(model: CaptionModel, row: Row, settings: SamplingSettings) -> LogitsProcessorList:
    """Guidance, then temperature, top-k and top-p: the batched sampler's order."""
    generic = torch.tensor([[model.ids.generic, *row.prompt[1:]]], device=model.device)
    out = LogitsProcessorList()
    if settings.template_guidance != 1:
        out.append(GuidedOpening(settings.template_guidance, model.model, generic, settings.guided_tokens))
    out.append(TemperatureLogitsWarper(settings.temperature))
    if settings.top_k > 0:
        out.append(TopKLogitsWarper(settings.top_k))
    if 0 < settings.top_p < 1:
        out.append(TopPLogitsWarper(settings.top_p))
    return out


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
            logits_processor=warpers(model, row, settings),
            temperature=None,  # the built-in warpers are off: the list above applies them in order
            top_k=None,
            top_p=None,
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
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--temperature", type=float, default=None, help="default: SamplingSettings")
    parser.add_argument("--top-k", type=int, default=None)
    parser.add_argument("--top-p", type=float, default=None)
    parser.add_argument("--template-guidance", type=float, default=None)
    parser.add_argument("--guided-tokens", type=int, default=None)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model = load_caption_model(Path(args.model), "cpu")
    names = ("temperature", "top_k", "top_p", "template_guidance", "guided_tokens")
    try:
        settings = SamplingSettings(
            **{name: getattr(args, name) for name in names if getattr(args, name) is not None}
        )
    except SamplingError as error:
        parser.error(str(error))
    batched(model, prompts(model, 16, 1), settings)  # warm-up
    # Each round times the two back to back and keeps their ratio; the medians of the rounds are
    # reported, so load from other work that comes and goes moves both sides of a ratio alike.
    rounds = []
    for r in range(args.rounds):
        fast = batched(model, prompts(model, args.batch, r), settings)
        slow = one_at_a_time(model, prompts(model, args.single, r), settings)
        rounds.append((fast, slow, fast / slow))
    fast, slow, ratio = (statistics.median(column) for column in zip(*rounds, strict=True))
    params = sum(p.numel() for p in model.model.parameters()) / 1e6
    print(
        f"model {model.version}, {params:.2f}M params, {args.threads} threads, median of {args.rounds} rounds"
    )
    print(
        f"sampling: T={settings.temperature}, top-k={settings.top_k}, top-p={settings.top_p}, "
        f"template guidance {settings.template_guidance} over {settings.guided_tokens} tokens, "
        f"max {settings.max_new_tokens} tokens"
    )
    print(f"batched KV-cache sampling ({args.batch} per loop): {fast:8.1f} captions/s")
    print(f"one-at-a-time generate():                {slow:8.1f} captions/s")
    each = ", ".join(f"{x:.1f}" for _, _, x in rounds)
    print(f"ratio: {ratio:.1f}x (median of the rounds' ratios; rounds: {each})")


if __name__ == "__main__":
    main()
