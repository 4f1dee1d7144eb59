"""The caption model: a small GPT-2 that writes meme captions from a template and keywords.

Plain Python (no Django models, no Celery). Importing this package loads no torch: it holds
the settings, errors, keyword checks and the values that cross its seams (types.py). The
pipeline loads one model per worker process with ``model.load_caption_model`` and calls
``CaptionModel.write`` with a batch of requests. Training, evaluating and judging the model are
the lab's (``lab/captions/``), which imports this package; nothing here imports the lab.
"""

from generation.captions.config import CaptionConfig, SamplingSettings
from generation.captions.errors import (
    CaptionError,
    CaptionModelMissing,
    KeywordError,
    SamplingError,
    TemplateError,
)
from generation.captions.keywords import clean_keywords, extract_keywords
from generation.captions.types import Caption, CaptionRequest, CaptionWriter

__all__ = [
    "Caption",
    "CaptionConfig",
    "CaptionError",
    "CaptionModelMissing",
    "CaptionRequest",
    "CaptionWriter",
    "KeywordError",
    "SamplingError",
    "SamplingSettings",
    "TemplateError",
    "clean_keywords",
    "extract_keywords",
]
