import torch

from generation.captions.config import SamplingSettings
from generation.captions.prompt import encode_texts, prompt_ids
from generation.captions.sample import sample_boxes
from generation.captions.tiny import tiny_caption_model
from generation.captions.types import Row


def rows_with_keyword(keyword: str, count: int) -> tuple[object, list[Row]]:
    model = tiny_caption_model()
    prompt = prompt_ids(model.ids, model.ids.generic, encode_texts(model.tokenizer, [keyword]))
    return model, [Row(i, [keyword], prompt, 1) for i in range(count)]


def test_a_strong_boost_makes_every_caption_use_its_keyword_whole() -> None:
    model, rows = rows_with_keyword("lottery", 12)
    settings = SamplingSettings(keyword_boost=50.0, max_new_tokens=60)
    results = sample_boxes(model, rows, settings, torch.Generator().manual_seed(0))  # type: ignore[arg-type]
    finished = [boxes for boxes in results if boxes is not None]
    assert finished
    assert all("lottery" in " ".join(boxes) for boxes in finished)  # whole, though maybe run on ("lotterys")


def test_without_a_boost_the_keywords_change_nothing_but_the_prompt() -> None:
    model, rows = rows_with_keyword("lottery", 12)
    bare = [Row(r.request, [], r.prompt, r.box_count) for r in rows]
    off = SamplingSettings(keyword_boost=0.0)
    with_keywords = sample_boxes(model, rows, off, torch.Generator().manual_seed(0))  # type: ignore[arg-type]
    without = sample_boxes(model, bare, off, torch.Generator().manual_seed(0))  # type: ignore[arg-type]
    assert with_keywords == without
