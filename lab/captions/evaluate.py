"""Score a caption model on a held-out split in ImgFlip575K layout.

Metrics (all on templates the model knows; unknown templates are skipped and counted):
  nats_per_char            caption NLL given the template token only (scoring.py)
  distinct_1, distinct_2   unique / total word n-grams over the unfiltered samples
  novelty                  share of unfiltered samples not verbatim in the training captions
  keyword_adherence        share of samples prompted with 1-3 held-out keywords using at least one
  template_fidelity_ratio  a TF-IDF + linear classifier's accuracy naming the template of samples,
                           over its accuracy on real held-out captions it was not trained on
  shown_distinct_1, _2     distinct-n of the captions as the product shows them (CaptionModel.write:
                           filters and the choice among candidates), for the same prompts
  shown_nonword_share      share of shown captions holding a word not seen 3 times in training
  job_distinct_1, _2       distinct-n of the same prompts written as the pipeline's jobs ask: one
                           request per template and box count for all its captions, so the
                           choice among candidates can keep a job's captions apart (rerank.py)
Samples are drawn before the product's filters, so novelty and distinct-n measure the model
itself; the filters then remove every copy. Templates of samples follow the held-out captions'
own mix, so distinct-n compares with the human 0.254 / 0.763.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from generation.captions.config import SamplingSettings
from generation.captions.keywords import extract_keywords, uses_keyword
from generation.captions.model import CaptionModel
from generation.captions.prompt import encode_texts, prompt_ids
from generation.captions.sample import sample_boxes
from generation.captions.scoring import Item, nats_per_char
from generation.captions.text import WORD, caption_text, normalize_caption
from generation.captions.types import Caption as Written
from generation.captions.types import CaptionRequest, Row
from lab.captions.data import is_validation, load_memes


@dataclass
class EvalSettings:
    samples: int = 1000  # for distinct-n, novelty and template fidelity
    keyword_prompts: int = 500
    batch_size: int = 250  # captions per batched sampling loop
    seed: int = 1234
    max_captions: int = 0  # 0 = score every held-out caption's NLL


def held_out_items(data_dir: Path, model: CaptionModel) -> tuple[list[Item], int]:
    """Normalised held-out captions of known templates, and the number of unknown templates."""
    memes = load_memes(data_dir)
    known = [slug for slug in memes if model.knows(slug)]
    items = [
        (slug, boxes) for slug in sorted(known) for raw in memes[slug] if (boxes := normalize_caption(raw))
    ]
    return items, len(memes) - len(known)


def spread(items: Sequence[Item], count: int, rng: random.Random) -> list[Item]:
    """``count`` items drawn without replacement (with replacement if there are fewer)."""
    if len(items) >= count:
        return rng.sample(list(items), count)
    return [rng.choice(items) for _ in range(count)]


Prompt = tuple[str, int, list[str]]  # template slug, box count, keywords


def make_row(model: CaptionModel, index: int, prompt: Prompt) -> Row:
    slug, box_count, keywords = prompt
    ids = prompt_ids(model.ids, model.ids.template(slug), encode_texts(model.tokenizer, keywords))
    return Row(index, keywords, ids, box_count)


def sample_for(
    model: CaptionModel, prompts: list[Prompt], settings: SamplingSettings, ev: EvalSettings
) -> list[list[str]]:
    """One unfiltered caption per (slug, box count, keywords); rows that ran out of tokens retry."""
    generator = torch.Generator(device=model.device).manual_seed(ev.seed)
    out: list[list[str] | None] = [None] * len(prompts)
    for _attempt in range(3):
        todo = [i for i, c in enumerate(out) if c is None]
        for start in range(0, len(todo), ev.batch_size):
            chunk = todo[start : start + ev.batch_size]
            rows = [make_row(model, i, prompts[i]) for i in chunk]
            for i, boxes in zip(chunk, sample_boxes(model, rows, settings, generator), strict=True):
                out[i] = boxes
    return [c if c is not None else [""] for c in out]


def shown_captions(
    model: CaptionModel, prompts: list[Prompt], settings: SamplingSettings, ev: EvalSettings
) -> list[Written]:
    """One caption per (slug, box count) prompt as the product writes it; fewer where the
    filters turned every candidate down."""
    written: list[Written] = []
    for start in range(0, len(prompts), ev.batch_size):
        chunk = prompts[start : start + ev.batch_size]
        requests = [CaptionRequest(slug, boxes, keywords, n=1) for slug, boxes, keywords in chunk]
        written += model.write(requests, settings, rng_seed=ev.seed + start)
    return written


def job_captions(
    model: CaptionModel, prompts: list[Prompt], settings: SamplingSettings, ev: EvalSettings
) -> list[Written]:
    """The plain prompts grouped into one request per (slug, box count), as a job asks."""
    counts = Counter((slug, boxes) for slug, boxes, _ in prompts)
    requests = [CaptionRequest(slug, boxes, n=n) for (slug, boxes), n in sorted(counts.items())]
    return model.write(requests, settings, rng_seed=ev.seed)


def nonword_share(texts: Sequence[str], known: frozenset[str]) -> float:
    """Share of texts with a word outside ``known`` (0 when the model has no vocabulary)."""
    if not known:
        return 0.0
    return sum(any(w not in known for w in WORD.findall(t)) for t in texts) / max(1, len(texts))


def distinct_n(texts: Sequence[str], n: int) -> float:
    """Unique over total word n-grams (words split on spaces, "|" between boxes counts as a word)."""
    grams = [tuple(w[i : i + n]) for t in texts for w in [t.split()] for i in range(len(w) - n + 1)]
    return len(set(grams)) / max(1, len(grams))


def keyword_prompts(items: Sequence[Item], count: int, rng: random.Random) -> list[Prompt]:
    """(slug, box count, 1-3 keywords taken from a held-out caption) for captions that have keywords."""
    return [(slug, len(boxes), keywords) for slug, boxes, keywords in keyword_draws(items, count, rng)]


def keyword_draws(
    items: Sequence[Item], count: int, rng: random.Random, allowed: Callable[[str], bool] = lambda _: True
) -> list[tuple[str, list[str], list[str]]]:
    """``count`` captions drawn at random, each with 1-3 of its own one-word keywords that
    ``allowed`` takes; captions with none are passed over."""
    drawn: list[tuple[str, list[str], list[str]]] = []  # (slug, boxes, keywords)
    for slug, boxes in rng.sample(list(items), len(items)):
        pool = [k for k in extract_keywords(caption_text(boxes)) if " " not in k and allowed(k)]
        if pool:
            drawn.append((slug, boxes, rng.sample(pool, min(len(pool), rng.randint(1, 3)))))
        if len(drawn) == count:
            break
    return drawn


def fidelity_ratio(items: Sequence[Item], samples: Sequence[Item], seed: int) -> float:
    """Classifier accuracy on samples / on real held-out captions (trained on the other real half)."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import LinearSVC

    train = [it for it in items if not is_validation(caption_text(it[1]), 0.5, salt="fidelity")]
    test = [it for it in items if is_validation(caption_text(it[1]), 0.5, salt="fidelity")]
    classifier = make_pipeline(TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True), LinearSVC(C=0.5))
    classifier.fit([caption_text(b) for _, b in train], [s for s, _ in train])

    def accuracy(group: Sequence[Item]) -> float:
        guesses = classifier.predict([caption_text(b) for _, b in group])
        return float(sum(g == s for g, (s, _) in zip(guesses, group, strict=True)) / max(1, len(group)))

    return accuracy(samples) / max(1e-9, accuracy(test))


def evaluate(
    model: CaptionModel,
    data_dir: Path,
    ev: EvalSettings | None = None,
    settings: SamplingSettings | None = None,
) -> dict[str, Any]:
    """The fixed-interface metrics of evaluate_captions --json."""
    ev, settings = ev or EvalSettings(), settings or SamplingSettings()
    rng = random.Random(ev.seed)
    items, skipped = held_out_items(data_dir, model)
    if not items:
        raise ValueError(f"{data_dir} has no captions of templates this model knows ({skipped} skipped)")
    scored = spread(items, ev.max_captions, rng) if 0 < ev.max_captions < len(items) else items
    npc = nats_per_char(model.model, model.tokenizer, scored)
    plain: list[Prompt] = [(slug, len(boxes), []) for slug, boxes in spread(items, ev.samples, rng)]
    samples = sample_for(model, plain, settings, ev)
    texts = [caption_text(b) for b in samples]
    kw_prompts = keyword_prompts(items, ev.keyword_prompts, rng)
    kw_samples = sample_for(model, kw_prompts, settings, ev)
    adherent = [
        any(uses_keyword(caption_text(b), k) for k in p[2])
        for p, b in zip(kw_prompts, kw_samples, strict=True)
    ]
    shown = [caption_text(c.boxes) for c in shown_captions(model, plain, settings, ev)]
    jobs = [caption_text(c.boxes) for c in job_captions(model, plain, settings, ev)]
    return {
        "nats_per_char": round(npc, 4),
        "distinct_1": round(distinct_n(texts, 1), 4),
        "distinct_2": round(distinct_n(texts, 2), 4),
        "novelty": round(sum(not model.filter.is_copy(b) for b in samples) / len(samples), 4),
        "keyword_adherence": round(sum(adherent) / max(1, len(adherent)), 4),
        "template_fidelity_ratio": round(
            fidelity_ratio(items, [(p[0], b) for p, b in zip(plain, samples, strict=True)], ev.seed), 4
        ),
        "shown_distinct_1": round(distinct_n(shown, 1), 4),
        "shown_distinct_2": round(distinct_n(shown, 2), 4),
        "shown_nonword_share": round(nonword_share(shown, model.vocabulary.words), 4),
        "job_distinct_1": round(distinct_n(jobs, 1), 4),
        "job_distinct_2": round(distinct_n(jobs, 2), 4),
        "n_captions": len(scored),
        "n_templates": len({slug for slug, _ in items}),
        "n_skipped_templates": skipped,
    }
