"""A caption asked for keywords is chosen from ``keyword_candidates`` drawn captions, a plain one
from ``candidates``: keywords give a caption more to get right."""

from unittest.mock import patch

import pytest

from generation.captions import CaptionRequest, SamplingSettings
from generation.captions.model import CaptionModel
from generation.captions.tiny import tiny_caption_model
from generation.captions.types import Row


@pytest.fixture(scope="module")
def model() -> CaptionModel:
    return tiny_caption_model()


def drawn_per_request(model: CaptionModel, sampling: SamplingSettings) -> dict[int, int]:
    drawn: dict[int, int] = {}

    def record(_model: object, rows: list[Row], *_: object) -> list[None]:
        for row in rows:
            drawn[row.request] = drawn.get(row.request, 0) + 1
        return [None] * len(rows)

    requests = [CaptionRequest("Success-Kid", 1, n=2), CaptionRequest("Success-Kid", 1, ["bug"], n=2)]
    with patch("generation.captions.sample.sample_boxes", record):
        model.write(requests, sampling, rng_seed=1)
    return drawn


def test_keyword_requests_draw_keyword_candidates_per_caption(model: CaptionModel) -> None:
    sampling = SamplingSettings(candidates=2, keyword_candidates=5, oversample=1.0, max_attempts=1)
    assert drawn_per_request(model, sampling) == {0: 2 * 2, 1: 2 * 5}


def test_a_keyword_candidate_count_under_one_is_refused() -> None:
    with pytest.raises(ValueError, match="keyword_candidates must be at least 1"):
        SamplingSettings(keyword_candidates=0)
