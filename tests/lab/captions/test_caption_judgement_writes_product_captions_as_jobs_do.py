"""The blind set's product captions are written the way the pipeline's jobs ask for them: one
request per box count for all its captions, so the choice among candidates that keeps a job's
captions apart is judged too."""

from typing import Any

from generation.captions import Caption, CaptionRequest, SamplingSettings
from lab.captions.judgement import product_captions


class RecordingModel:
    def __init__(self) -> None:
        self.requests: list[CaptionRequest] = []

    def write(
        self, requests: list[CaptionRequest], settings: SamplingSettings, rng_seed: Any = None
    ) -> list[Caption]:
        self.requests = requests
        return [
            Caption([f"box {b}" for b in range(r.box_count)], [], "v", {}, i)
            for i, r in enumerate(requests)
            for _ in range(r.n)
        ]


def test_one_request_per_box_count_holds_all_its_captions() -> None:
    model = RecordingModel()
    written = product_captions(model, "Success-Kid", [2, 2, 1, 2], SamplingSettings(), seed=3)  # type: ignore[arg-type]
    assert [(r.template_key, r.box_count, r.n) for r in model.requests] == [
        ("Success-Kid", 1, 1),
        ("Success-Kid", 2, 3),
    ]
    assert [len(boxes) for boxes in written] == [2, 2, 1, 2]  # in the human captions' order
