"""Byte-level BPE over lowercased captions (GPT-2's scheme), plus the caption special tokens."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerBase, PreTrainedTokenizerFast

from generation.captions.config import EOS, FIXED_SPECIAL_TOKENS, PAD, template_token


def special_tokens(templates: Sequence[str]) -> list[str]:
    """The fixed tokens, then one template token per slug, in a stable order."""
    return list(FIXED_SPECIAL_TOKENS) + [template_token(slug) for slug in sorted(templates)]


def train_tokenizer(
    texts: Iterable[str], vocab_size: int, templates: Sequence[str]
) -> PreTrainedTokenizerFast:
    """Train GPT-2-style byte-level BPE: ``vocab_size`` merges and bytes, special tokens on top."""
    specials = special_tokens(templates)
    backend = Tokenizer(models.BPE())
    # No prefix space: a box starts right after a special token, as at sampling time.
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size + len(specials),
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    backend.train_from_iterator(texts, trainer=trainer)
    return wrap_tokenizer(backend, specials)


def wrap_tokenizer(backend: Tokenizer, specials: list[str]) -> PreTrainedTokenizerFast:
    extra = [t for t in specials if t not in (EOS, PAD)]
    return PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=backend,
        eos_token=EOS,
        bos_token=EOS,
        pad_token=PAD,
        additional_special_tokens=extra,
    )


def add_caption_tokens(tokenizer: PreTrainedTokenizerBase, templates: Sequence[str]) -> int:
    """Give a pretrained GPT-2 tokenizer our special tokens; returns how many were new."""
    extra = [t for t in special_tokens(templates) if t not in (EOS, PAD)]
    return int(
        tokenizer.add_special_tokens(
            {"eos_token": EOS, "pad_token": PAD, "additional_special_tokens": extra},
        )
    )
