"""Caption NLL in nats per character, given the template token only (no keywords).

Comparable with Imgflip's character CNN (1.3127 nats/char): the total NLL of the caption's
tokens (box text, box separators, end token) divided by its characters, one per separator
and one for the end (``prompt.caption_chars``).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch.nn import functional
from transformers import GPT2LMHeadModel, PreTrainedTokenizerBase

from generation.captions.prompt import SpecialIds, caption_chars, caption_ids, encode_texts, prompt_ids

Item = tuple[str, list[str]]  # (template slug, boxes)


def encode_scored(tokenizer: PreTrainedTokenizerBase, items: Sequence[Item]) -> list[tuple[list[int], int]]:
    """(token ids, prompt length) per item; the prompt is the template token then <|caption|>."""
    ids = SpecialIds.of(tokenizer)
    flat = [box for _, boxes in items for box in boxes]
    encoded = iter(encode_texts(tokenizer, flat))
    out = []
    for slug, boxes in items:
        prompt = prompt_ids(ids, ids.template(slug), [])
        out.append((prompt + caption_ids(ids, [next(encoded) for _ in boxes]), len(prompt)))
    return out


@torch.no_grad()
def caption_nats(
    model: GPT2LMHeadModel, tokenizer: PreTrainedTokenizerBase, items: Sequence[Item], batch_size: int = 64
) -> list[float]:
    """Total NLL in nats of each item's caption tokens, in input order."""
    model.eval()  # type: ignore[no-untyped-call]
    device = next(model.parameters()).device
    ids = SpecialIds.of(tokenizer)
    limit = model.config.n_positions
    encoded = [(seq[:limit], n) for seq, n in encode_scored(tokenizer, items)]
    order = sorted(range(len(encoded)), key=lambda i: len(encoded[i][0]))  # similar lengths per batch
    nats = [0.0] * len(encoded)
    for start in range(0, len(order), batch_size):
        chunk = order[start : start + batch_size]
        width = max(len(encoded[i][0]) for i in chunk)
        x = torch.full((len(chunk), width), ids.pad, dtype=torch.long)  # (B, T)
        y = torch.full((len(chunk), width), -100, dtype=torch.long)  # (B, T) next-token targets
        mask = torch.zeros((len(chunk), width), dtype=torch.long)
        for row, i in enumerate(chunk):
            seq, n_prompt = encoded[i]
            x[row, : len(seq)] = torch.tensor(seq)
            mask[row, : len(seq)] = 1
            y[row, n_prompt - 1 : len(seq) - 1] = torch.tensor(seq[n_prompt:])  # position t predicts t+1
        logits = model(input_ids=x.to(device), attention_mask=mask.to(device)).logits.float()  # (B, T, V)
        loss = functional.cross_entropy(
            logits.transpose(1, 2), y.to(device), ignore_index=-100, reduction="none"
        )
        for row, i in enumerate(chunk):
            nats[i] = float(loss[row].sum())
    return nats


def nats_per_char(
    model: GPT2LMHeadModel, tokenizer: PreTrainedTokenizerBase, items: Sequence[Item], batch_size: int = 64
) -> float:
    """Summed caption NLL over summed caption characters (+1 per caption for the end)."""
    if not items:
        return float("nan")
    nats = caption_nats(model, tokenizer, items, batch_size)
    return sum(nats) / sum(caption_chars(boxes) for _, boxes in items)
