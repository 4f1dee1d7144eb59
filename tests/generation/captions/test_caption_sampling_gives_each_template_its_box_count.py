import torch

from generation.captions.config import SamplingSettings
from generation.captions.prompt import prompt_ids
from generation.captions.sample import sample_boxes
from generation.captions.tiny import tiny_caption_model
from generation.captions.types import Row


def test_every_sampled_caption_has_exactly_the_requested_number_of_boxes() -> None:
    model = tiny_caption_model()
    counts = [1, 2, 3, 4] * 8
    rows = [
        Row(i, [], prompt_ids(model.ids, model.ids.template("Drake-Hotline-Bling"), []), n)
        for i, n in enumerate(counts)
    ]
    settings = SamplingSettings(max_new_tokens=80)
    results = sample_boxes(model, rows, settings, torch.Generator().manual_seed(0))
    finished = [(n, boxes) for n, boxes in zip(counts, results, strict=True) if boxes is not None]
    assert finished, "an untrained model should still finish some captions in 80 tokens"
    for n, boxes in finished:
        assert len(boxes) == n


def test_rows_of_one_batch_stop_independently_at_their_end_token() -> None:
    model = tiny_caption_model()
    rows = [Row(i, [], prompt_ids(model.ids, model.ids.generic, []), 1) for i in range(16)]
    results = sample_boxes(model, rows, SamplingSettings(max_new_tokens=60), torch.Generator().manual_seed(1))
    lengths = {len(boxes[0]) for boxes in results if boxes is not None}
    assert len(lengths) > 1  # rows did not all run for the same number of steps
