"""A stand-in caption model for pipeline tests: instant, deterministic, and
counting what it was asked for. The real model is tested in test_caption_*."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from generation.captions.config import SamplingSettings
from generation.captions.types import Caption, CaptionRequest


@dataclass
class FakeCaptionModel:
    version: str = "fake-model-1"
    fail_with: Exception | None = None
    seconds_per_call: float = 0.0  # to keep a worker busy long enough to kill it mid-batch
    requests: list[CaptionRequest] = field(default_factory=list)

    def write(
        self, requests: list[CaptionRequest], settings: SamplingSettings, rng_seed: int | None = None
    ) -> list[Caption]:
        if self.fail_with is not None:
            raise self.fail_with
        time.sleep(self.seconds_per_call)
        self.requests.extend(requests)
        return [
            Caption(
                boxes=[f"{request.template_key or 'any'} {n} box {box}" for box in range(request.box_count)],
                keywords=list(request.keywords),
                model_version=self.version,
                sampling={"temperature": 0.9},
                request_index=index,
            )
            for index, request in enumerate(requests)
            for n in range(request.n)
        ]

    @property
    def captions_written(self) -> int:
        return sum(request.n for request in self.requests)
