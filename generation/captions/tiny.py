"""A tiny caption model built and briefly trained in memory in a second, for tests and smoke checks.

A few dozen full-batch steps on the sample captions teach it where boxes and captions end, so
sampling finishes rows as a real model does; what it writes is otherwise nonsense.
"""

from __future__ import annotations

import torch
from transformers import GPT2LMHeadModel, PreTrainedTokenizerBase

from generation.captions.config import CaptionConfig
from generation.captions.filters import CaptionFilter, caption_hashes
from generation.captions.model import CaptionModel, build_model
from generation.captions.prompt import SpecialIds
from generation.captions.scoring import encode_scored
from generation.captions.text import Caption
from generation.captions.tokenizer import train_tokenizer

TINY = CaptionConfig(vocab_size=300, n_positions=96, n_embd=32, n_layer=1, n_head=2)

SAMPLE_MEMES: dict[str, list[Caption]] = {
    "Drake-Hotline-Bling": [["doing homework", "memes about homework"], ["coffee at noon", "coffee at dawn"]],
    "Bad-Luck-Brian": [["buys a lottery ticket", "wins a second ticket"], ["goes to the beach", "it snows"]],
    "Success-Kid": [["finally fixed the bug"], ["found money in my old jacket"]],
}


def fit_briefly(
    model: GPT2LMHeadModel, tokenizer: PreTrainedTokenizerBase, memes: dict[str, list[Caption]], steps: int
) -> None:
    """Full-batch AdamW on the captions with template-only prompts, padded, loss on every token."""
    ids = SpecialIds.of(tokenizer)
    items = [(slug, boxes) for slug, caps in memes.items() for boxes in caps]
    seqs = [seq for seq, _ in encode_scored(tokenizer, items)]
    width = max(map(len, seqs))
    x = torch.tensor([s + [ids.pad] * (width - len(s)) for s in seqs])  # (B, T)
    labels = torch.tensor([s + [-100] * (width - len(s)) for s in seqs])  # (B, T)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model.train()
    for _ in range(steps):
        loss = model(input_ids=x, labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()  # type: ignore[no-untyped-call]


def tiny_caption_model(
    memes: dict[str, list[Caption]] | None = None, seed: int = 0, steps: int = 40
) -> CaptionModel:
    """A 1-layer GPT-2 with a real tokenizer over ``memes`` and a filter knowing its captions."""

    memes = memes or SAMPLE_MEMES
    torch.set_num_threads(1)  # a 32-wide model gains nothing from threads, and tests run beside other work
    torch.manual_seed(seed)
    texts = [box for caps in memes.values() for boxes in caps for box in boxes]
    tokenizer = train_tokenizer(texts * 5, TINY.vocab_size, sorted(memes))
    model = build_model(TINY, tokenizer)
    model.config.caption_templates = sorted(memes)
    fit_briefly(model, tokenizer, memes, steps)
    hashes = caption_hashes(c for caps in memes.values() for c in caps)
    return CaptionModel(model, tokenizer, "tiny", CaptionFilter(hashes))
