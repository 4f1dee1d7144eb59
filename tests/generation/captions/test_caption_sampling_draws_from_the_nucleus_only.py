"""Top-p sampling draws only from the nucleus (the likeliest tokens up to and
including the first that takes their mass past top_p), in proportion to their
probabilities; top-p 1 draws from everything; impossible tokens never come."""

from __future__ import annotations

import math

import torch

from generation.captions.config import SamplingSettings
from generation.captions.sample import pick_tokens

ROWS = 20_000


def frequencies(probs: list[float], top_p: float, seed: int = 0) -> list[float]:
    logits = torch.tensor([math.log(p) if p > 0 else -math.inf for p in probs]).repeat(ROWS, 1)
    settings = SamplingSettings(temperature=1.0, top_k=0, top_p=top_p)
    tokens = pick_tokens(logits, settings, torch.Generator().manual_seed(seed))
    counts = torch.bincount(tokens, minlength=len(probs))
    return (counts.float() / ROWS).tolist()


def test_tokens_outside_the_nucleus_are_never_drawn() -> None:
    # Sorted: 0.5 and 0.3 hold 0.8 < 0.9, so 0.15 is in; 0.05 and 0 are out.
    seen = frequencies([0.15, 0.05, 0.5, 0.0, 0.3], top_p=0.9)
    assert seen[1] == 0 and seen[3] == 0
    for token, p in ((0, 0.15), (2, 0.5), (4, 0.3)):
        assert abs(seen[token] - p / 0.95) < 0.015, seen


def test_a_flat_distribution_keeps_just_enough_tokens() -> None:
    seen = frequencies([0.25] * 4, top_p=0.6)  # any order of ties: 3 tokens reach 0.75
    assert abs(sum(seen) - 1) < 1e-6 and sum(1 for f in seen if f > 0) >= 3


def test_top_p_one_draws_from_every_possible_token() -> None:
    seen = frequencies([0.15, 0.05, 0.5, 0.0, 0.3], top_p=1.0)
    assert seen[3] == 0
    for token, p in ((0, 0.15), (1, 0.05), (2, 0.5), (4, 0.3)):
        assert abs(seen[token] - p) < 0.015, seen
