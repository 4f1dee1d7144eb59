"""The values that cross the caption model's seams, importable without torch.

The pipeline (generation/jobs.py) builds ``CaptionRequest``s, hands them to a
``CaptionWriter`` and stores the ``Caption``s it gets back; a web process that
only checks keywords or queues jobs never loads torch. Inside the package the
sampler (sample.py) turns requests into ``Row``s and reads what it needs of a
loaded model through ``LoadedModel``, which model.CaptionModel is: the model
depends on the sampler, never the reverse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from generation.captions.config import SamplingSettings

if TYPE_CHECKING:  # types of the loaded model only; nothing here loads torch
    import torch
    from transformers import PreTrainedTokenizerBase

    from generation.captions.filters import CaptionFilter
    from generation.captions.prompt import SpecialIds
    from generation.captions.rerank import Vocabulary


@dataclass
class CaptionRequest:
    """N captions for one template; template_key is an ImgFlip slug, or None/unknown (generic)."""

    template_key: str | None
    box_count: int
    keywords: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)  # captions of an unseen template
    n: int = 1


@dataclass
class Caption:
    boxes: list[str]
    keywords: list[str]
    model_version: str
    sampling: dict[str, Any]  # SamplingSettings.to_dict() plus the seed
    request_index: int = 0  # which request of the write() call this caption answers


@dataclass
class Row:
    """One caption being sampled: which request, with which keywords, from which prompt."""

    request: int
    keywords: list[str]
    prompt: list[int]
    box_count: int
    openings: list[list[int]] = field(default_factory=list)  # tokens each box must open with


class CaptionWriter(Protocol):
    """Writes captions for a batch of requests: the loaded model, or a test's stand-in."""

    version: str

    def write(
        self, requests: list[CaptionRequest], settings: SamplingSettings, rng_seed: int | None = None
    ) -> list[Caption]: ...


class LoadedModel(Protocol):
    """What sampling reads of a loaded caption model (model.CaptionModel)."""

    model: Any  # a GPT2LMHeadModel in eval mode (eval() is untyped)
    tokenizer: PreTrainedTokenizerBase
    ids: SpecialIds
    version: str
    filter: CaptionFilter
    vocabulary: Vocabulary  # the training words and word pairs: others cost in reranking
    device: torch.device

    def knows(self, template_token: str) -> bool: ...

    def __hash__(self) -> int: ...  # sampling caches what it works out once per loaded model
