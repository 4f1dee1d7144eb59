"""The caption model: a small GPT-2 that writes meme captions from a template and keywords.

Plain Python (no Django models, no Celery). The pipeline loads one model per worker process
with ``load_caption_model`` and calls ``CaptionModel.write`` with a batch of requests.
"""

from generation.captions.config import CaptionConfig, SamplingSettings, TrainConfig
from generation.captions.errors import (
    CaptionError,
    CaptionModelMissing,
    KeywordError,
    SamplingError,
    TemplateError,
)
from generation.captions.keywords import clean_keywords, extract_keywords
from generation.captions.model import CaptionModel, load_caption_model
from generation.captions.sample import Caption, CaptionRequest

__all__ = [
    "Caption",
    "CaptionConfig",
    "CaptionError",
    "CaptionModel",
    "CaptionModelMissing",
    "CaptionRequest",
    "KeywordError",
    "SamplingError",
    "SamplingSettings",
    "TemplateError",
    "TrainConfig",
    "clean_keywords",
    "extract_keywords",
    "load_caption_model",
]
