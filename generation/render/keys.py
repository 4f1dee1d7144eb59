"""Output file names: a hash of everything that decides a render's bytes, so
a retried task finds the file it already wrote and a new renderer never
reuses an old one's files."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from generation.layout import TextBox
from generation.render.canvas import MAX_WIDTH

# Bump when a change to any module of this package changes pixels: it is part
# of every output file name, so cached renders from older code are never reused.
RENDERER_VERSION = 3


def render_key(
    template_sha256: str,
    boxes: Sequence[TextBox],
    texts: Sequence[str],
    width: int,
    fmt: str,
    mark_position: str,
) -> str:
    """Hex SHA-256 of everything that decides the output's bytes: its file name,
    so a retried task finds the file it already wrote."""
    payload = {
        "renderer": RENDERER_VERSION,
        "template": template_sha256,
        "boxes": [box.to_dict() for box in boxes],
        "texts": list(texts),
        "width": min(width, MAX_WIDTH),
        "format": fmt,
        "mark": mark_position,
    }
    canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
