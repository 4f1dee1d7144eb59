"""Template guidance samples each row from log p(x|generic) + g * (log p(x|template) - log p(x|generic)),
running every row a second time under the generic token in the same batch."""

from __future__ import annotations

import pytest
import torch

from generation.captions.config import SamplingSettings
from generation.captions.model import CaptionModel
from generation.captions.prompt import encode_texts, prompt_ids
from generation.captions.sample import guide, sample_boxes
from generation.captions.tiny import tiny_caption_model
from generation.captions.types import Row

GREEDY = {"temperature": 1e-6, "top_k": 0, "top_p": 1.0, "max_new_tokens": 30, "keyword_boost": 0.0}


def row(model: CaptionModel, index: int, slug: str | None, keywords: list[str], boxes: int) -> Row:
    prompt = prompt_ids(model.ids, model.ids.template(slug), encode_texts(model.tokenizer, keywords))
    return Row(index, keywords, prompt, boxes)


def test_guidance_of_one_is_the_template_prompt_alone_and_more_pushes_away_from_the_generic() -> None:
    cond, plain = torch.tensor([[2.0, 1.0, 0.0]]), torch.tensor([[1.0, 1.0, 1.0]])
    both = torch.cat([cond, plain])
    assert torch.allclose(guide(both.clone(), 1.0).log_softmax(-1), cond.log_softmax(-1))
    guided = guide(both.clone(), 3.0).log_softmax(-1)
    expected = plain.log_softmax(-1) + 3 * (cond.log_softmax(-1) - plain.log_softmax(-1))
    assert torch.allclose(guided, expected.log_softmax(-1))
    assert guided[0, 0] - guided[0, 2] > cond[0, 0] - cond[0, 2]  # what the template favours, more so


@pytest.mark.parametrize("guided_tokens", [3, 80])  # the generic copies leave mid-caption, or never
def test_each_guided_row_samples_the_same_in_a_mixed_batch_as_alone(guided_tokens: int) -> None:
    # Greedy decoding makes every row's caption a function of its prompt alone, so a row must not
    # be disturbed by its neighbours: other templates, the generic token, longer prompts (padding),
    # other box counts, and rows leaving the batch and the KV cache at other steps.
    model = tiny_caption_model()
    rows = [
        row(model, 0, "Drake-Hotline-Bling", [], 2),
        row(model, 1, "Success-Kid", ["money", "jacket"], 1),
        row(model, 2, None, ["coffee"], 2),
        row(model, 3, "Bad-Luck-Brian", [], 3),
        row(model, 4, "Bad-Luck-Brian", ["beach"], 1),
    ]
    settings = SamplingSettings(template_guidance=2.5, guided_tokens=guided_tokens, **GREEDY)  # type: ignore[arg-type]
    together = sample_boxes(model, rows, settings, torch.Generator().manual_seed(0))
    alone = [sample_boxes(model, [r], settings, torch.Generator().manual_seed(0))[0] for r in rows]
    assert together == alone
    assert sum(boxes is not None for boxes in together) >= 3, together


def test_guided_captions_keep_their_templates_box_counts() -> None:
    model = tiny_caption_model()
    counts = [1, 2, 3] * 10
    slugs = ["Drake-Hotline-Bling", "Success-Kid", None]
    rows = [row(model, i, slugs[i % 3], [], n) for i, n in enumerate(counts)]
    settings = SamplingSettings(template_guidance=2.0, guided_tokens=5, max_new_tokens=80)
    results = sample_boxes(model, rows, settings, torch.Generator().manual_seed(3))
    finished = [(n, boxes) for n, boxes in zip(counts, results, strict=True) if boxes is not None]
    assert len(finished) > len(rows) // 2
    assert all(len(boxes) == n for n, boxes in finished)


def test_guidance_changes_what_a_known_template_samples_but_not_the_generic_token() -> None:
    model = tiny_caption_model()
    known = [row(model, i, "Bad-Luck-Brian", [], 2) for i in range(40)]
    generic = [row(model, i, None, [], 2) for i in range(40)]

    def sampled(rows: list[Row], guidance: float) -> list[list[str] | None]:
        settings = SamplingSettings(template_guidance=guidance, guided_tokens=60, max_new_tokens=60)
        return sample_boxes(model, rows, settings, torch.Generator().manual_seed(7))

    assert sampled(known, 4.0) != sampled(known, 1.0)
    assert sampled(generic, 4.0) == sampled(generic, 1.0)  # nothing to guide towards
