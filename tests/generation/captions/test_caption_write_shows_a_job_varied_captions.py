"""A job shows many captions of one template: among candidates alike in cost, the ones that
repeat the word pairs already chosen for the same job give way to different ones."""

import pytest

from generation.captions import Caption, CaptionRequest
from generation.captions import sample as sampling
from generation.captions.rerank import OVERLAP_COST, choose_varied
from generation.captions.tiny import tiny_caption_model

GONE = ["i got paid", "aaaand it's gone"]
GONE_AGAIN = ["i got a cookie", "aaaand it's gone"]
OTHER = ["bought a new phone", "dropped it in the toilet"]


def test_the_cheapest_caption_comes_first_and_a_repeat_gives_way() -> None:
    chosen = choose_varied([GONE, GONE_AGAIN, OTHER], [1.0, 1.01, 1.2], 2)
    assert chosen == [0, 2]  # GONE_AGAIN shares "aaaand it's gone" with GONE


def test_a_much_likelier_repeat_still_wins() -> None:
    chosen = choose_varied([GONE, GONE_AGAIN, OTHER], [1.0, 1.01, 1.0 + OVERLAP_COST + 0.1], 2)
    assert chosen == [0, 1]


def test_every_caption_is_chosen_when_fewer_than_asked() -> None:
    assert sorted(choose_varied([GONE, OTHER], [2.0, 1.0], 5)) == [0, 1]
    assert choose_varied([], [], 3) == []


def test_write_shows_a_job_the_varied_captions(monkeypatch: pytest.MonkeyPatch) -> None:
    model = tiny_caption_model()
    candidates = [
        Caption(GONE, [], "v", {}, 0),
        Caption(GONE_AGAIN, [], "v", {}, 0),
        Caption(OTHER, [], "v", {}, 0),
    ]
    monkeypatch.setattr(sampling, "caption_costs", lambda *args: [1.0, 1.01, 1.2])
    shown = sampling.best_of(model, [CaptionRequest("Success-Kid", 2, n=2)], [candidates])
    assert [c.boxes for c in shown] == [GONE, OTHER]
