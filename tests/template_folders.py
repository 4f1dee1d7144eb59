"""Template folders in memegen's layout, written for tests."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import yaml
from PIL import Image


def write_template_folder(
    root: Path,
    key: str,
    name: str = "A Template",
    boxes: int = 1,
    image_size: tuple[int, int] = (400, 300),
    image_format: str = "JPEG",
    mode: str = "RGB",
    **extra: Any,
) -> Path:
    folder = root / key
    folder.mkdir(parents=True, exist_ok=True)
    text = [{"anchor_x": 0.0, "anchor_y": 0.8 * n, "scale_x": 1.0, "scale_y": 0.2} for n in range(boxes)]
    config = {"name": name, "source": "https://example.com/", "keywords": ["win"], "text": text, **extra}
    (folder / "config.yml").write_text(yaml.safe_dump(config))
    buffer = io.BytesIO()
    Image.new(mode, image_size, "orange").save(buffer, image_format)
    suffix = {"JPEG": "jpg", "PNG": "png"}[image_format]
    for old in folder.glob("default.*"):
        old.unlink()
    (folder / f"default.{suffix}").write_bytes(buffer.getvalue())
    return folder
