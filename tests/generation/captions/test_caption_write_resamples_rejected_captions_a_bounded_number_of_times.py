from generation.captions import CaptionRequest, SamplingSettings
from generation.captions.tiny import tiny_caption_model


class RejectFirst:
    """Rejects the first ``count`` captions it sees, then accepts everything."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.seen = 0

    def reason(self, boxes: list[str]) -> str | None:
        self.seen += 1
        return "test" if self.seen <= self.count else None


def test_rejected_captions_are_replaced_by_new_samples() -> None:
    model = tiny_caption_model()
    model.filter = RejectFirst(6)  # type: ignore[assignment]
    # A hot temperature keeps the tiny model from repeating its few memorised captions.
    settings = SamplingSettings(temperature=2.0, top_k=0, top_p=1.0, max_new_tokens=80, max_attempts=6)
    captions = model.write([CaptionRequest("Success-Kid", 1, n=4)], settings, rng_seed=3)
    assert len(captions) == 4
    assert model.filter.seen > 6  # type: ignore[attr-defined]


def test_a_filter_that_rejects_everything_gives_fewer_captions_instead_of_looping() -> None:
    model = tiny_caption_model()
    model.filter = RejectFirst(10**9)  # type: ignore[assignment]
    captions = model.write(
        [CaptionRequest("Success-Kid", 1, n=3)], SamplingSettings(max_attempts=3), rng_seed=3
    )
    assert captions == []


def test_each_caption_carries_model_version_sampling_settings_and_its_request() -> None:
    model = tiny_caption_model()
    model.filter = RejectFirst(0)  # type: ignore[assignment]
    settings = SamplingSettings(temperature=0.7, top_k=20, max_new_tokens=80, max_attempts=8)
    requests = [CaptionRequest("Success-Kid", 1, n=2), CaptionRequest(None, 2, keywords=["Coffee"], n=2)]
    captions = model.write(requests, settings, rng_seed=11)
    assert [c.request_index for c in captions] == [0, 0, 1, 1]
    for caption in captions:
        assert caption.model_version == "tiny"
        assert caption.sampling["temperature"] == 0.7 and caption.sampling["top_k"] == 20
        assert caption.sampling["seed"] == 11
    assert captions[2].keywords == ["coffee"]


def test_the_same_seed_writes_the_same_captions() -> None:
    model = tiny_caption_model()
    model.filter = RejectFirst(0)  # type: ignore[assignment]
    request = [CaptionRequest("Bad-Luck-Brian", 2, n=3)]
    settings = SamplingSettings(max_new_tokens=80, max_attempts=8)
    first = [c.boxes for c in model.write(request, settings, rng_seed=5)]
    assert first == [c.boxes for c in model.write(request, settings, rng_seed=5)]
