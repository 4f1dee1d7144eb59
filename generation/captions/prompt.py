"""The token layout of one example: template, keywords, then the caption's boxes.

    <|tpl:Slug|> (<|kw|> keyword)*  <|caption|> box (<|box|> box)* <|endoftext|>

Only the caption part (boxes, box tokens, end token) is scored and trained on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from transformers import PreTrainedTokenizerBase

from generation.captions.config import BOX, CAPTION, EOS, GENERIC_TEMPLATE, KW, PAD


@dataclass(frozen=True)
class SpecialIds:
    """Token ids of the special tokens, looked up once per tokenizer."""

    eos: int
    pad: int
    kw: int
    caption: int
    box: int
    generic: int
    templates: dict[str, int]  # slug -> token id

    @classmethod
    def of(cls, tokenizer: PreTrainedTokenizerBase) -> SpecialIds:
        vocab = tokenizer.get_vocab()
        templates = {
            tok[len("<|tpl:") : -2]: idx
            for tok, idx in vocab.items()
            if tok.startswith("<|tpl:") and tok != GENERIC_TEMPLATE
        }
        return cls(
            vocab[EOS], vocab[PAD], vocab[KW], vocab[CAPTION], vocab[BOX], vocab[GENERIC_TEMPLATE], templates
        )

    def template(self, slug: str | None) -> int:
        """The slug's own token, or the generic one for a template the model has not seen."""
        return self.templates.get(slug or "", self.generic)

    def all_special(self) -> list[int]:
        return [self.eos, self.pad, self.kw, self.caption, self.box, self.generic, *self.templates.values()]


def prompt_ids(ids: SpecialIds, template_id: int, keyword_ids: Sequence[Sequence[int]]) -> list[int]:
    """Template token, each keyword after a keyword token, then the caption-start token."""
    out = [template_id]
    for kw in keyword_ids:
        out.append(ids.kw)
        out.extend(kw)
    out.append(ids.caption)
    return out


def caption_ids(ids: SpecialIds, box_ids: Sequence[Sequence[int]]) -> list[int]:
    """Boxes separated by the box token, closed by the end token."""
    out: list[int] = []
    for i, box in enumerate(box_ids):
        if i:
            out.append(ids.box)
        out.extend(box)
    out.append(ids.eos)
    return out


def encode_texts(tokenizer: PreTrainedTokenizerBase, texts: Sequence[str]) -> list[list[int]]:
    """Token ids of plain texts (no special tokens), batched through the fast tokenizer."""
    if not texts:
        return []
    return [list(x) for x in tokenizer(list(texts), add_special_tokens=False)["input_ids"]]


def caption_chars(boxes: Sequence[str]) -> int:
    """Characters a caption's NLL is divided by: box text, one per separator, one for the end."""
    return len("|".join(boxes)) + 1


__all__ = ["BOX", "CAPTION", "EOS", "KW", "PAD", "SpecialIds", "caption_chars", "caption_ids", "prompt_ids"]
