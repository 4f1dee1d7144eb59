"""Build, save and load the caption GPT-2 (Hugging Face ``GPT2LMHeadModel``).

A model directory holds: config.json (GPT-2 settings plus ``caption_config`` and the known
templates), model.safetensors, the tokenizer files, training_captions.npy (8-byte hashes of
every training caption, for the novelty filter), MODEL_CARD.md and loss_curve.png. The lab
(``lab/captions/train.py``) builds and saves them with the functions here.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict
from pathlib import Path

import torch
from transformers import AutoTokenizer, GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerBase

from generation.captions.config import CaptionConfig, SamplingSettings
from generation.captions.errors import CaptionModelMissing
from generation.captions.filters import CaptionFilter
from generation.captions.prompt import SpecialIds
from generation.captions.rerank import Vocabulary
from generation.captions.sample import write_captions
from generation.captions.types import Caption, CaptionRequest

REQUIRED_FILES = ("config.json", "model.safetensors", "tokenizer.json")
HOW_TO_FIX = (
    "Restore models/captions/ from git, set CAPTION_MODEL_DIR to a directory holding a trained caption "
    "model, or train one in the lab (lab/README.md): with DJANGO_SETTINGS_MODULE=lab.settings, "
    "`python manage.py prepare_captions --data <imgflip575k dir>` then "
    "`python manage.py train_captions --data lab/runs/data/train --val lab/runs/data/val`."
)


def build_model(cfg: CaptionConfig, tokenizer: PreTrainedTokenizerBase) -> GPT2LMHeadModel:
    """A fresh GPT-2 sized by ``cfg``, with the tokenizer's full vocabulary (specials included)."""
    ids = SpecialIds.of(tokenizer)
    config = GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=cfg.n_positions,
        n_embd=cfg.n_embd,
        n_layer=cfg.n_layer,
        n_head=cfg.n_head,
        resid_pdrop=cfg.dropout,
        embd_pdrop=cfg.dropout,
        attn_pdrop=cfg.dropout,
        bos_token_id=ids.eos,
        eos_token_id=ids.eos,
        pad_token_id=ids.pad,
        tie_word_embeddings=cfg.tie_word_embeddings,
        activation_function="gelu_pytorch_tanh",  # GPT-2's tanh GELU as one fused op
    )
    config.caption_config = asdict(cfg)
    return GPT2LMHeadModel(config)


def from_pretrained_checkpoint(path: Path, tokenizer: PreTrainedTokenizerBase) -> GPT2LMHeadModel:
    """Fine-tune start: a pretrained GPT-2 directory, embeddings grown for the new special tokens."""
    model = GPT2LMHeadModel.from_pretrained(str(path), local_files_only=True)
    model.resize_token_embeddings(len(tokenizer))
    ids = SpecialIds.of(tokenizer)
    model.config.pad_token_id = ids.pad
    model.config.eos_token_id = ids.eos
    return model


def load_pretrained_tokenizer(path: Path) -> PreTrainedTokenizerBase:
    return AutoTokenizer.from_pretrained(str(path), local_files_only=True)


def save_model_dir(model: GPT2LMHeadModel, tokenizer: PreTrainedTokenizerBase, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out), safe_serialization=True)
    tokenizer.save_pretrained(str(out))


def weights_version(path: Path) -> str:
    """A short content hash of the weights file: the model version every caption carries."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()[:12]


def pick_device(device: str) -> tuple[torch.device, torch.dtype]:
    """ "auto": CUDA in half precision when present, else CPU in float32."""
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    dev = torch.device(device)
    return dev, (torch.float16 if dev.type == "cuda" else torch.float32)


class CaptionModel:
    """A loaded caption model: GPT-2, its tokenizer, and the filters every caption passes."""

    def __init__(
        self,
        model: GPT2LMHeadModel,
        tokenizer: PreTrainedTokenizerBase,
        version: str,
        caption_filter: CaptionFilter,
        device: torch.device | None = None,
        vocabulary: Vocabulary | None = None,
    ) -> None:
        self.model = model.eval()  # type: ignore[no-untyped-call]
        self.tokenizer = tokenizer
        self.ids = SpecialIds.of(tokenizer)
        self.version = version
        self.filter = caption_filter
        self.vocabulary = vocabulary or Vocabulary()  # other words and word pairs cost in reranking
        self.device = device or next(model.parameters()).device

    def knows(self, template_token: str) -> bool:
        """Whether the model was trained on this template (a slug or its ``<|tpl:..|>`` token)."""
        slug = template_token[len("<|tpl:") : -2] if template_token.startswith("<|tpl:") else template_token
        return slug in self.ids.templates

    def write(
        self, requests: list[CaptionRequest], settings: SamplingSettings, rng_seed: int | None = None
    ) -> list[Caption]:
        """Captions for every request, filtered; see ``sample.write_captions``."""
        return write_captions(self, requests, settings, rng_seed)


def load_caption_model(path: Path, device: str = "auto") -> CaptionModel:
    """Load a model directory; raises CaptionModelMissing naming the path and how to get one."""
    path = Path(path)
    missing = [name for name in REQUIRED_FILES if not (path / name).is_file()]
    if missing:
        raise CaptionModelMissing(f"No caption model at {path} (missing {', '.join(missing)}). {HOW_TO_FIX}")
    dev, dtype = pick_device(device)
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        config = GPT2Config.from_pretrained(str(path), local_files_only=True)
        if config.activation_function == "gelu_new":  # same tanh GELU, fused: ~10% faster sampling on CPU
            config.activation_function = "gelu_pytorch_tanh"
        model = GPT2LMHeadModel.from_pretrained(str(path), config=config, local_files_only=True, dtype=dtype)
    except Exception as exc:  # corrupt or partial files: say which directory and how to fix it
        raise CaptionModelMissing(
            f"Caption model at {path} could not be loaded ({exc}). {HOW_TO_FIX}"
        ) from exc
    model.to(dev)  # type: ignore[arg-type]
    version = weights_version(path / "model.safetensors")
    caption_filter = CaptionFilter.from_model_dir(path)
    return CaptionModel(model, tokenizer, version, caption_filter, dev, Vocabulary.load(path))
