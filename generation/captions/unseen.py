"""Templates the model was never trained on: what their captions are conditioned on.

A template a curator adds has no template token of its own, and its captions written under the
generic token ignore its format (formats.py forces the openings its examples share, where they
share any). Its example captions give the model two more things to go on:

* a stand-in (``SamplingSettings.borrow_template``): the trained template the examples read
  likeliest under, whose token replaces the generic one;
* a token of its own (``SamplingSettings.template_fit_steps``): the stand-in's input embedding
  fitted for a few steps to the examples, the model itself unchanged (prompt tuning). Rows use
  the fitted vector in place of the template token's embedding.

Eight such templates (``bench/data/new-templates.json``: four curator examples each, and eight
more captions held out): the held-out captions score 1.048 nats/char under the generic token,
1.013 under the stand-in, 0.976, 0.967, 0.967 and 0.970 after 5, 10, 15 and 20 steps of fitting
(Adam, learning rate 0.01; more steps learn the four examples rather than their format).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import torch
from torch.nn import functional

from generation.captions.config import SamplingSettings
from generation.captions.prompt import caption_ids, encode_texts
from generation.captions.scoring import caption_nats
from generation.captions.types import CaptionRequest, LoadedModel

MAX_EXAMPLES = 8  # examples read per template: 88 templates x 8 short captions to choose a stand-in
FIT_LEARNING_RATE = 0.01


@dataclass(frozen=True)
class Conditioning:
    """What an unseen template's rows are written under: a trained template's token (None: the
    generic one), and optionally an embedding fitted to the examples in that token's place."""

    template: str | None = None
    vector: torch.Tensor | None = None  # (n_embd,)


def conditioning(model: LoadedModel, request: CaptionRequest, settings: SamplingSettings) -> Conditioning:
    """The conditioning of a request's rows; empty for a trained template or one without examples."""
    if not request.examples or (request.template_key is not None and model.knows(request.template_key)):
        return Conditioning()
    examples = tuple(request.examples[:MAX_EXAMPLES])
    start = likeliest_template(model, examples) if settings.borrow_template else None
    if not settings.template_fit_steps:
        return Conditioning(start)
    return Conditioning(start, fitted_embedding(model, start, examples, settings.template_fit_steps))


def split_boxes(text: str) -> list[str]:
    return [box.strip() for box in text.split("|")]


@lru_cache(maxsize=256)  # a template's jobs ask with the same examples again and again
def likeliest_template(model: LoadedModel, examples: tuple[str, ...]) -> str:
    """The trained template under which the examples' total nats are lowest."""
    captions = [split_boxes(text) for text in examples]
    slugs = sorted(model.ids.templates)
    nats = caption_nats(model.model, model.tokenizer, [(slug, c) for slug in slugs for c in captions])
    totals = [sum(nats[i * len(captions) : (i + 1) * len(captions)]) for i in range(len(slugs))]
    return slugs[totals.index(min(totals))]


@lru_cache(maxsize=256)
def fitted_embedding(
    model: LoadedModel, start: str | None, examples: tuple[str, ...], steps: int
) -> torch.Tensor:
    """The template token's input embedding after ``steps`` of Adam on the examples' caption
    loss (as training counts it: the caption's tokens, not the prompt's), from ``start``'s."""
    ids, embeddings = model.ids, model.model.get_input_embeddings()
    sequences = [[ids.caption, *caption_ids(ids, boxes)] for boxes in encode_boxes(model, examples)]
    width = max(map(len, sequences))
    tokens = torch.tensor(
        [s + [ids.pad] * (width - len(s)) for s in sequences], device=model.device
    )  # (B, T)
    targets = torch.tensor([s[1:] + [-100] * (width - len(s)) for s in sequences], device=model.device)
    vector = embeddings.weight[ids.template(start)].detach().float().clone().requires_grad_(True)
    optimizer = torch.optim.Adam([vector], lr=FIT_LEARNING_RATE)
    with torch.enable_grad():
        for _ in range(steps):
            inputs = torch.cat([vector.expand(len(sequences), 1, -1), embeddings(tokens).float()], dim=1)
            logits = model.model(inputs_embeds=inputs.to(embeddings.weight.dtype)).logits  # (B, T + 1, V)
            loss = functional.cross_entropy(
                logits[:, 1:-1].float().transpose(1, 2), targets, ignore_index=-100
            )
            (vector.grad,) = torch.autograd.grad(loss, [vector])  # the model's own weights get no gradient
            optimizer.step()
    fitted: torch.Tensor = vector.detach().to(embeddings.weight.dtype)
    return fitted


def encode_boxes(model: LoadedModel, examples: tuple[str, ...]) -> list[list[list[int]]]:
    captions = [split_boxes(text) for text in examples]
    flat = iter(encode_texts(model.tokenizer, [box for boxes in captions for box in boxes]))
    return [[next(flat) for _ in boxes] for boxes in captions]
