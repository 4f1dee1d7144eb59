"""A meme's ``srcset`` for pages: its lighter copies, and the image itself at
full width when no copy is as wide (static/js/feed.js builds cards' the same way)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def srcset(item: dict[str, Any]) -> str:
    """``"…600w.webp 600w, …800w.webp 800w"`` from a feed item (feed.serializers)."""
    candidates = [(variant["url"], variant["width"]) for variant in item["variants"]]
    if item["width"] and all(width != item["width"] for _, width in candidates):
        candidates.append((item["image"], item["width"]))
    return ", ".join(f"{url} {width}w" for url, width in candidates)
