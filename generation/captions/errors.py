"""Errors the caption model raises; callers catch CaptionError."""

from __future__ import annotations


class CaptionError(Exception):
    """Base of every error of the caption model."""


class CaptionModelMissing(CaptionError):
    """The model directory is missing, incomplete or unreadable."""


class KeywordError(CaptionError, ValueError):
    """User keywords that cannot be used (too many, too long, empty, not text, profane)."""


class TemplateError(CaptionError, ValueError):
    """A request the model cannot serve, e.g. a box count below 1."""


class SamplingError(CaptionError, ValueError):
    """Sampling settings out of their range (a negative temperature, top-p above 1, nan)."""
