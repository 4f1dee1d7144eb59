"""How a training run of the caption model goes: every setting of ``train_captions`` in one dataclass.

The model's own settings (``CaptionConfig``) and the sampler's (``SamplingSettings``) are the
product's, in ``generation/captions/config.py``; this file loads no torch, so a command's
``--help`` lists the options without it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class TrainConfig:
    """How train_captions runs; defaults are sized for ~55 minutes on this 2-core CPU."""

    data_dir: str = ""  # ImgFlip575K layout: <data_dir>/memes/<Template-Slug>.json
    out_dir: str = "lab/runs/captions"  # checkpoints, log, loss curve (git ignores lab/runs/)
    init_from: str = ""  # a pretrained GPT-2 directory to fine-tune; empty = from scratch
    # A portable checkpoint (a model directory with training_state.json, as written beside
    # checkpoint.pt) to go on from when out_dir has no checkpoint.pt: a run that spans
    # machines carries this small directory (a quarter of checkpoint.pt, no optimizer state)
    # from the ignored run folder to the next machine; nothing is committed until it ships.
    resume_from: str = ""
    seed: int = 1337
    block_size: int = 128  # tokens per packed training sequence
    batch_size: int = 32  # sequences per step: 4,096 tokens
    max_minutes: float = 65.0  # wall-clock budget, validation pauses included
    max_steps: int = 0  # 0 = the LR schedule and the stop follow max_minutes (a shared CPU's speed varies)
    learning_rate: float = 1.5e-3  # small from-scratch GPT; use ~1e-4 when fine-tuning real gpt2
    min_lr: float = 1e-4  # cosine floor
    warmup_steps: int = 100  # when max_steps is set
    warmup_minutes: float = 2.0  # when the run is timed
    weight_decay: float = 0.1
    grad_clip: float = 1.0
    eval_every_minutes: float = 5.0
    eval_captions: int = 1500  # held-out captions scored at each validation
    checkpoint_every_minutes: float = 4.0
    threads: int = 2
    # Prompt augmentation (keyword-conditioned GPT-2 recipe): keyword count is drawn afresh for
    # every caption in every epoch, so the model learns neither keyword order nor count.
    keyword_count_weights: tuple[float, ...] = (0.4, 0.2, 0.2, 0.2)  # P(0), P(1), P(2), P(3)
    generic_template_share: float = 0.1  # examples shown with <|tpl:any|> instead of their slug
    val_share: float = 0.02  # held out by a stable hash of the caption text

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
