"""Train the caption GPT-2 on packed sequences, with validation, checkpoints and resume.

Each epoch re-draws every caption's prompt (template or generic token, 0-3 shuffled keywords),
shuffles the captions, concatenates the examples into one token stream and cuts it into
``block_size`` blocks (GPT-2's packing: no padding). Only caption tokens carry loss.
"""

from __future__ import annotations

import copy
import json
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional
from tqdm import tqdm  # type: ignore[import-untyped]
from transformers import GPT2LMHeadModel, PreTrainedTokenizerBase

from generation.captions.config import CaptionConfig
from generation.captions.filters import HASHES_FILE, caption_hashes
from generation.captions.keywords import extract_keywords
from generation.captions.model import (
    build_model,
    from_pretrained_checkpoint,
    load_pretrained_tokenizer,
    save_model_dir,
)
from generation.captions.prompt import SpecialIds, caption_ids, encode_texts, prompt_ids
from generation.captions.rerank import Vocabulary
from generation.captions.scoring import Item, nats_per_char
from generation.captions.text import Caption, caption_text
from generation.captions.tokenizer import add_caption_tokens, train_tokenizer
from lab.captions.config import TrainConfig
from lab.captions.data import load_memes


@dataclass
class Corpus:
    """Training captions, tokenised once: template, caption token ids, keyword candidates."""

    slugs: list[str]
    captions: list[list[int]]  # boxes, box tokens and end token
    keywords: list[list[str]]
    keyword_ids: dict[str, list[int]] = field(default_factory=dict)


def build_corpus(memes: dict[str, list[Caption]], tokenizer: PreTrainedTokenizerBase) -> Corpus:
    ids = SpecialIds.of(tokenizer)
    items = [(slug, boxes) for slug, caps in memes.items() for boxes in caps]
    flat = encode_texts(tokenizer, [box for _, boxes in items for box in boxes])
    it = iter(flat)
    captions = [caption_ids(ids, [next(it) for _ in boxes]) for _, boxes in items]
    keywords = [extract_keywords(caption_text(boxes)) for _, boxes in items]
    unique = sorted({k for ks in keywords for k in ks})
    keyword_ids = dict(zip(unique, encode_texts(tokenizer, unique), strict=True))
    return Corpus([slug for slug, _ in items], captions, keywords, keyword_ids)


def epoch_stream(
    corpus: Corpus, ids: SpecialIds, cfg: TrainConfig, epoch: int
) -> tuple[np.ndarray, np.ndarray]:
    """(tokens, loss mask) of one epoch: every caption once, with a fresh prompt, shuffled."""
    rng = random.Random(cfg.seed * 1000 + epoch)
    order = list(range(len(corpus.captions)))
    rng.shuffle(order)
    tokens: list[int] = []
    mask: list[int] = []
    counts = range(len(cfg.keyword_count_weights))
    for i in order:
        generic = rng.random() < cfg.generic_template_share
        template = ids.generic if generic else ids.template(corpus.slugs[i])
        k = min(rng.choices(counts, cfg.keyword_count_weights)[0], len(corpus.keywords[i]))
        chosen = rng.sample(corpus.keywords[i], k)  # random order and subset
        prompt = prompt_ids(ids, template, [corpus.keyword_ids[w] for w in chosen])
        tokens.extend(prompt)
        tokens.extend(corpus.captions[i])
        mask.extend([0] * len(prompt))
        mask.extend([1] * len(corpus.captions[i]))
    return np.asarray(tokens, dtype=np.int64), np.asarray(mask, dtype=np.bool_)


def batch_at(stream: tuple[np.ndarray, np.ndarray], index: int, cfg: TrainConfig) -> tuple[torch.Tensor, ...]:
    """Batch ``index`` of an epoch: inputs (B, T) and targets (B, T), -100 where no loss."""
    tokens, mask = stream
    span = cfg.batch_size * cfg.block_size
    start = index * span
    x = torch.from_numpy(tokens[start : start + span]).view(cfg.batch_size, cfg.block_size)
    y = torch.from_numpy(tokens[start + 1 : start + span + 1].copy())
    y[~torch.from_numpy(mask[start + 1 : start + span + 1])] = -100
    return x, y.view(cfg.batch_size, cfg.block_size)


def batches_per_epoch(stream: tuple[np.ndarray, np.ndarray], cfg: TrainConfig) -> int:
    return (len(stream[0]) - 1) // (cfg.batch_size * cfg.block_size)


def caption_loss(model: GPT2LMHeadModel, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Mean NLL (nats/token) of caption tokens; the LM head runs only where there is a target.

    Prompt positions (~20% of a block) carry no loss, so skipping their 6k-way logits saves time.
    """
    hidden = model.transformer(input_ids=x).last_hidden_state  # (B, T, C)
    keep = y != -100  # (B, T)
    logits = model.lm_head(hidden[keep])  # (N, V)
    return functional.cross_entropy(logits, y[keep])


def learning_rate(progress: float, cfg: TrainConfig, warmup: float) -> float:
    """Linear warmup, then cosine decay to ``min_lr``; ``progress`` and ``warmup`` are fractions of the run.

    Progress is measured in steps when max_steps is set, else in wall-clock seconds of the
    max_minutes budget, so the schedule ends on time on a CPU shared with other work.
    """
    if progress < warmup:
        return cfg.learning_rate * max(progress, 1e-3) / warmup
    decay = min(1.0, (progress - warmup) / max(1e-9, 1 - warmup))
    return cfg.min_lr + 0.5 * (1 + math.cos(math.pi * decay)) * (cfg.learning_rate - cfg.min_lr)


def run_progress(state: dict[str, Any], cfg: TrainConfig) -> tuple[float, float]:
    """(progress, warmup) as fractions of the run: by steps, or by seconds of max_minutes."""
    if cfg.max_steps:
        return state["step"] / cfg.max_steps, cfg.warmup_steps / cfg.max_steps
    return state["seconds"] / (cfg.max_minutes * 60), cfg.warmup_minutes / cfg.max_minutes


def make_optimizer(model: GPT2LMHeadModel, cfg: TrainConfig) -> torch.optim.Optimizer:
    """AdamW; no weight decay on biases, layer norms and (tied) embeddings' 1-D params."""
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    groups = [{"params": decay, "weight_decay": cfg.weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=cfg.learning_rate, betas=(0.9, 0.99))


def validation_items(val: dict[str, list[Caption]], limit: int) -> list[Item]:
    """A fixed, spread sample of held-out captions (every k-th), the same at every validation."""
    items = [(slug, boxes) for slug, caps in sorted(val.items()) for boxes in caps]
    step = max(1, len(items) // max(1, limit))
    return items[::step][:limit]


def save_checkpoint(path: Path, state: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    tmp.replace(path)  # atomic: a kill mid-write never leaves a broken checkpoint


STATE_FILE = "training_state.json"


def save_portable(
    model: GPT2LMHeadModel, tokenizer: PreTrainedTokenizerBase, state: dict[str, Any], out: Path
) -> None:
    """Weights in half precision (a quarter of checkpoint.pt, which also holds AdamW's two
    moments), tokenizer and where the run stands: enough to go on elsewhere (resume_from)."""
    half = copy.deepcopy(model).half()  # type: ignore[no-untyped-call]
    save_model_dir(half, tokenizer, out)
    (out / STATE_FILE).write_text(json.dumps(state), encoding="utf-8")


def setup_model(
    cfg: TrainConfig, model_cfg: CaptionConfig, train: dict[str, list[Caption]], out: Path
) -> tuple[PreTrainedTokenizerBase, GPT2LMHeadModel]:
    """Tokenizer and model: from a pretrained GPT-2 directory, or trained from scratch."""
    templates = sorted(train)
    if cfg.resume_from and not (out / "checkpoint.pt").is_file():  # going on from a portable checkpoint
        tokenizer = load_pretrained_tokenizer(Path(cfg.resume_from))
        model = GPT2LMHeadModel.from_pretrained(cfg.resume_from, local_files_only=True, dtype=torch.float32)
    elif cfg.init_from:
        tokenizer = load_pretrained_tokenizer(Path(cfg.init_from))
        add_caption_tokens(tokenizer, templates)
        model = from_pretrained_checkpoint(Path(cfg.init_from), tokenizer)
    elif (out / "model" / "tokenizer.json").is_file():  # resuming: the tokenizer must not change
        tokenizer = load_pretrained_tokenizer(out / "model")
        model = build_model(model_cfg, tokenizer)
    else:
        texts = (box for caps in train.values() for boxes in caps for box in boxes)
        tokenizer = train_tokenizer(texts, model_cfg.vocab_size, templates)
        model = build_model(model_cfg, tokenizer)
    model.config.caption_templates = templates
    return tokenizer, model


def train(
    cfg: TrainConfig, model_cfg: CaptionConfig, val_dir: Path, log: Callable[[str], None] = print
) -> Path:
    """Run (or resume) training; returns the directory of the finished model."""
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    out = Path(cfg.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    train_memes, val_memes = load_memes(Path(cfg.data_dir)), load_memes(val_dir)
    tokenizer, model = setup_model(cfg, model_cfg, train_memes, out)
    save_model_dir(model, tokenizer, out / "model")  # tokenizer fixed from the first run on
    ids = SpecialIds.of(tokenizer)
    corpus = build_corpus(train_memes, tokenizer)
    val_items = validation_items(val_memes, cfg.eval_captions)
    n_params = sum(p.numel() for p in model.parameters())
    log(
        f"{len(corpus.captions)} training captions, {len(val_items)} validation, {n_params / 1e6:.2f}M params"
    )

    optimizer = make_optimizer(model, cfg)
    state: dict[str, Any] = {"step": 0, "epoch": 0, "batch": 0, "seconds": 0.0, "history": []}
    ckpt = out / "checkpoint.pt"
    if ckpt.is_file():
        saved = torch.load(ckpt, weights_only=False)
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        state = saved["state"]
        log(f"resumed at step {state['step']} ({state['seconds'] / 60:.1f} min trained)")
    elif cfg.resume_from:
        state = json.loads((Path(cfg.resume_from) / STATE_FILE).read_text(encoding="utf-8"))
        log(f"went on from {cfg.resume_from} at step {state['step']} with a fresh optimizer")
    run_loop(model, tokenizer, optimizer, corpus, ids, val_items, cfg, state, out, log)
    return finish(model, tokenizer, train_memes, cfg, model_cfg, state, out, log)


def run_loop(
    model: GPT2LMHeadModel,
    tokenizer: PreTrainedTokenizerBase,
    optimizer: torch.optim.Optimizer,
    corpus: Corpus,
    ids: SpecialIds,
    val_items: list[Item],
    cfg: TrainConfig,
    state: dict[str, Any],
    out: Path,
    log: Callable[[str], None],
) -> None:
    stream = epoch_stream(corpus, ids, cfg, state["epoch"])
    if batches_per_epoch(stream, cfg) == 0:
        raise ValueError(
            f"{len(stream[0])} training tokens do not fill one batch of {cfg.batch_size} x {cfg.block_size}"
        )
    started = time.time() - state["seconds"]
    last_eval = last_ckpt = time.time()
    smooth = None
    bar = tqdm(initial=state["step"], total=cfg.max_steps or None, unit="step", mininterval=10)
    while run_progress(state, cfg)[0] < 1.0:
        if state["batch"] >= batches_per_epoch(stream, cfg):
            state["epoch"], state["batch"] = state["epoch"] + 1, 0
            stream = epoch_stream(corpus, ids, cfg, state["epoch"])
        model.train()
        x, y = batch_at(stream, state["batch"], cfg)
        progress, warmup = run_progress(state, cfg)
        lr = learning_rate(progress, cfg, warmup)
        for group in optimizer.param_groups:
            group["lr"] = lr
        loss = caption_loss(model, x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        optimizer.step()
        state["step"] += 1
        state["batch"] += 1
        state["seconds"] = time.time() - started
        value = float(loss.detach())
        smooth = value if smooth is None else 0.95 * smooth + 0.05 * value
        bar.update(1)
        bar.set_postfix(loss=f"{smooth:.3f}", lr=f"{lr:.1e}", epoch=state["epoch"])
        done = run_progress(state, cfg)[0] >= 1.0
        if done or time.time() - last_eval > cfg.eval_every_minutes * 60:
            validate(model, tokenizer, val_items, state, smooth, log)
            last_eval = time.time()
        if done or time.time() - last_ckpt > cfg.checkpoint_every_minutes * 60:
            snapshot = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "state": state}
            save_checkpoint(out / "checkpoint.pt", snapshot)
            save_portable(model, tokenizer, state, out / "portable")
            last_ckpt = time.time()
    bar.close()


def validate(
    model: GPT2LMHeadModel,
    tokenizer: PreTrainedTokenizerBase,
    val_items: list[Item],
    state: dict[str, Any],
    train_loss: float | None,
    log: Callable[[str], None],
) -> None:
    """Held-out nats/char overall and for the three commonest templates, appended to the history."""
    npc = nats_per_char(model, tokenizer, val_items)
    common = Counter(slug for slug, _ in val_items).most_common(3)  # a few templates' worth of detail
    per_template = {
        slug: round(nats_per_char(model, tokenizer, [it for it in val_items if it[0] == slug]), 4)
        for slug, _ in common
    }
    row = {
        "step": state["step"],
        "minutes": round(state["seconds"] / 60, 2),
        "train_loss_per_token": train_loss,
        "val_nats_per_char": round(npc, 4),
        "val_per_template": per_template,
    }
    state["history"].append(row)
    log(json.dumps(row))


def plot_history(history: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    minutes = [r["minutes"] for r in history]
    ax.plot(minutes, [r["val_nats_per_char"] for r in history], "o-", label="held-out nats/char")
    ax.plot(
        minutes,
        [r["train_loss_per_token"] / 3.3 for r in history],
        "--",  # ~3.3 chars per token
        label="train nats/token ÷ 3.3 (≈ nats/char)",
    )
    ax.axhline(1.3127, color="gray", lw=0.8, label="Imgflip char CNN (1.3127)")
    ax.set(xlabel="training minutes (2-core CPU)", ylabel="nats per character", title="Caption model loss")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def finish(
    model: GPT2LMHeadModel,
    tokenizer: PreTrainedTokenizerBase,
    train_memes: dict[str, list[Caption]],
    cfg: TrainConfig,
    model_cfg: CaptionConfig,
    state: dict[str, Any],
    out: Path,
    log: Callable[[str], None],
) -> Path:
    """Write the final model directory: weights, tokenizer, novelty hashes, curve, training log."""
    final = out / "model"
    model.config.training = {
        "minutes": round(state["seconds"] / 60, 1),
        "steps": state["step"],
        "epoch": state["epoch"],
        "batch_in_epoch": state["batch"],
        "train": cfg.to_dict(),
    }
    save_model_dir(model, tokenizer, final)
    np.save(final / HASHES_FILE, caption_hashes(c for caps in train_memes.values() for c in caps))
    Vocabulary.of(c for caps in train_memes.values() for c in caps).save(final)
    (final / "training_history.json").write_text(json.dumps(state["history"], indent=1), encoding="utf-8")
    if state["history"]:
        plot_history(state["history"], final / "loss_curve.png")
    log(f"model written to {final} after {state['seconds'] / 60:.1f} min, {state['step']} steps")
    return final
