import torch

from generation.captions.config import SamplingSettings
from generation.captions.model import CaptionModel
from generation.captions.prompt import encode_texts, prompt_ids
from generation.captions.rerank import is_bare_keyword
from generation.captions.sample import sample_boxes
from generation.captions.tiny import tiny_caption_model
from generation.captions.types import Row

# People who put "coffee" at a box's start here end the box on it: the model learns to close
# a box right after the word, as the shipped model did after a boosted keyword.
BARE_HABIT = {
    "Drake-Hotline-Bling": [["coffee", "more coffee"], ["coffee", "no sleep"], ["tea", "coffee at dawn"]],
    "Success-Kid": [["coffee"], ["finally fixed the bug"], ["coffee"]],
}


def rows_asking_for_coffee(model: CaptionModel, count: int) -> list[Row]:
    prompt = prompt_ids(model.ids, model.ids.generic, encode_texts(model.tokenizer, ["coffee"]))
    return [Row(i, ["coffee"], prompt, 1 + i % 2) for i in range(count)]


def bare_boxes(settings: SamplingSettings) -> tuple[int, int]:
    """Boxes that are the keyword alone, and boxes written, over 48 rows."""
    model = tiny_caption_model(BARE_HABIT, steps=60)
    rows = rows_asking_for_coffee(model, 48)
    results = sample_boxes(model, rows, settings, torch.Generator().manual_seed(0))
    boxes = [box for caption in results if caption is not None for box in caption]
    return sum(is_bare_keyword(box, ["coffee"]) for box in boxes), len(boxes)


def test_a_keyword_that_opens_a_box_is_followed_by_more_words() -> None:
    bare, written = bare_boxes(
        SamplingSettings(keyword_boost=50.0, keyword_start_share=1.0, max_new_tokens=30)
    )
    assert written > 20
    assert bare == 0


def test_the_earlier_sampler_left_the_keyword_alone_in_its_box() -> None:
    earlier = SamplingSettings(
        keyword_boost=50.0, max_new_tokens=30, bare_keyword_boxes=True, keyword_start_share=1.0
    )
    bare, _ = bare_boxes(earlier)
    assert bare > 5


def test_by_default_the_boost_leaves_box_openings_to_the_model() -> None:
    bare, written = bare_boxes(SamplingSettings(keyword_boost=50.0, max_new_tokens=30))
    assert written > 20
    assert bare == 0
