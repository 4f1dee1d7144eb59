"""Every golden template renders exactly as its reviewed image, so a change to
rendering shows up as an image diff in review.

Rewrite the images after an intended change with
    UPDATE_GOLDEN=1 .venv/bin/pytest tests/generation/render/test_render_matches_golden_images.py
and look at ``git diff`` of tests/golden/expected/*.png before committing.

Pixels must match exactly: the pinned Pillow wheel bundles its own FreeType
and Pillow's resampling and text drawing are deterministic, so the same code
gives the same pixels. A failure writes the new image next to the test's
temporary folder for a side-by-side look.
"""

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from generation.render import render_meme
from tests.golden.templates import CAPTIONS, EXPECTED, template

WIDTH = 400  # pixels: small enough to keep the golden images a few hundred KB in all


@pytest.mark.parametrize("key", sorted(CAPTIONS))
def test_render_matches_its_golden_image(key: str, tmp_path: Path) -> None:
    image, boxes = template(key)
    rendered = render_meme(image, list(boxes), CAPTIONS[key], width=WIDTH).image
    golden = EXPECTED / f"{key}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1" or not golden.exists():
        if os.environ.get("UPDATE_GOLDEN") != "1":
            pytest.fail(f"{golden} is missing: run with UPDATE_GOLDEN=1 to create it")
        EXPECTED.mkdir(exist_ok=True)
        rendered.save(golden, optimize=True)
        return
    with Image.open(golden) as expected:
        want = np.asarray(expected.convert("RGB"))
    got = np.asarray(rendered)
    if want.shape != got.shape or not np.array_equal(want, got):
        actual = tmp_path / f"{key}-actual.png"
        rendered.save(actual)
        differing = int((want != got).any(axis=-1).sum()) if want.shape == got.shape else -1
        pytest.fail(f"{key}: {differing} pixels differ from {golden}; new render saved to {actual}")
