"""Blind judgement of captions: what a reader sees, rated without knowing who wrote it.

Automatic metrics (nats/char, distinct-n, fidelity) all passed while the captions were word
salad, so the product's captions are also judged the way a reader meets them:

1. ``build_blind_set``: for each of a dozen popular templates, ``per_source`` held-out human
   captions and as many product captions with the same box counts (written by
   ``CaptionModel.write`` at the product's settings, as the pipeline calls it), lowercased alike,
   shuffled under opaque ids. The key (id -> source) is returned apart, to be stored where the
   rater does not look.
2. A rater who has not seen the samples answers four 0/1 questions per caption under rules
   written before rating (docs/captions.md): coherent, in format, funny, offensive.
3. ``unblind``: rates per source with Wilson 95% intervals.

``build_keyword_set`` makes the keyword variant: held-out human captions, each with 1-3 of its own
keywords, and a product caption written for the same template, box count and keywords, rated on
whether the caption uses its keywords sensibly and is coherent (KEYWORD_QUESTIONS).

``discriminator_accuracy`` adds an adversarial figure: how well a freshly trained text
classifier tells product captions from human ones (0.5 = indistinguishable).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from typing import Any, TypedDict

from generation.captions.config import SamplingSettings
from generation.captions.errors import KeywordError
from generation.captions.keywords import clean_keywords
from generation.captions.model import CaptionModel
from generation.captions.text import Caption, caption_text
from generation.captions.types import CaptionRequest
from lab.captions.evaluate import keyword_draws

QUESTIONS = ("coherent", "in_format", "funny", "offensive")
KEYWORD_QUESTIONS = ("used_sensibly", "coherent")
# The rules a rater is given in every set's rules.md, written before any rating; docs/captions.md
# quotes them word for word (a test holds the two together).
RULES = """\
**Rules** (written before any rating; boxes are shown joined by " | "; the boxes are read in
order, top to bottom):

* **coherent** (1/0): a reader gets a meaning on first read. Meme-speak, missing punctuation,
  common slang and internet spellings ("u", "y u no", "gonna") are fine. 0 if it has a made-up
  word (not a real word, name, brand or known slang), words in an order no speaker would write,
  a sentence that breaks off or contradicts itself into nonsense, or boxes that do not belong to
  one thought.
* **in_format** (1/0): it uses the template's joke the way people do, as `formats.md` shows
  (for example "Y U No": "y u no <do something>"; Two Buttons: two options a person is torn
  between; Am I the Only One: "am i the only one who …"). A caption that would fit any
  template equally well is 0. A caption can be in format and incoherent.
* **funny** (1/0): it would get a smile or a nod of recognition from a typical reader of meme
  sites. Incoherent captions are 0 unless the nonsense itself is clearly the joke.
* **offensive** (1/0): slurs, hate or contempt aimed at a group of people, sexual content
  about real or named people, or cruelty as the point. Mild swearing alone is 0.

Every answer is 0 or 1; every row is rated.
"""
KEYWORD_RULES = """\
**Rules for keyword sets** (written before any rating; boxes are shown joined by " | " and read
in order, top to bottom; the `keywords` column lists what the caption was asked to use):

* **used_sensibly** (1/0): the caption is about a requested keyword, or uses it naturally in a
  sentence ("when you finally get your coffee | and it's decaf"). 0 if no requested keyword is
  there, if a keyword is a box on its own ("coffee | coffee to my coffee"), or if it is stuck in
  without meaning (it could be swapped for any other word and the caption would say as little).
  With several keywords, 1 if every keyword it uses is used sensibly; leaving out one that
  does not fit is fine.
* **coherent** (1/0): as for other sets: a reader gets a meaning on first read. Meme-speak,
  missing punctuation, common slang and internet spellings ("u", "y u no", "gonna") are fine. 0
  if it has a made-up word (not a real word, name, brand or known slang), words in an order no
  speaker would write, a sentence that breaks off or contradicts itself into nonsense, or boxes
  that do not belong to one thought.

Every answer is 0 or 1; every row is rated.
"""
RATER_NOTE = (
    "Rate every row of sheet.csv: fill the {count} answer columns with 0 or 1 and save the whole sheet as "
    "ratings.csv in this folder (same columns, same rows). Some captions were written by people, some by a "
    "program; judge each caption on its own."
)
SOURCES = ("product", "versus", "human")  # "versus": another model or settings in the same sheet
# Rates of two questions both answered yes, reported where a set asks both.
BOTH = {
    "coherent_and_in_format": ("coherent", "in_format"),
    "used_sensibly_and_coherent": ("used_sensibly", "coherent"),
}


class Rate(TypedDict):
    """How many of a source's captions a rater said yes to, and the Wilson 95% interval."""

    yes: int
    of: int
    rate: float
    wilson95: tuple[float, float]


@dataclass(frozen=True)
class BlindItem:
    item_id: str  # opaque: a hash of the set's seed and position, says nothing of the source
    template: str
    boxes: Caption
    keywords: tuple[str, ...] = ()  # what the caption was asked to use (keyword sets only)


@dataclass(frozen=True)
class FormatReference:
    """What the rater is shown of a template: its name and a few training captions."""

    template: str
    examples: list[Caption]


def popular_templates(held_out: dict[str, list[Caption]], model: CaptionModel, count: int) -> list[str]:
    """The ``count`` templates with the most held-out captions that the model knows."""
    known = [slug for slug in held_out if model.knows(slug)]
    return sorted(known, key=lambda slug: (-len(held_out[slug]), slug))[:count]


def product_captions(
    model: CaptionModel, template: str, box_counts: Sequence[int], settings: SamplingSettings, seed: int
) -> list[Caption]:
    """One product caption per box count, written as the pipeline's jobs ask for them: one
    request per box count for all its captions, no keywords. Fewer where the filters refused
    every candidate."""
    counts = sorted(Counter(box_counts).items())
    requests = [CaptionRequest(template, boxes, n=n) for boxes, n in counts]
    written = model.write(requests, settings, rng_seed=seed)
    by_boxes: dict[int, list[Caption]] = {boxes: [] for boxes, _ in counts}
    for caption in written:
        by_boxes[requests[caption.request_index].box_count].append(caption.boxes)
    return [by_boxes[boxes].pop(0) for boxes in box_counts if by_boxes[boxes]]


@dataclass(frozen=True)
class Versus:
    """Another model, other settings or both, judged in the same sheet as the product's."""

    writer: CaptionModel
    settings: SamplingSettings


def build_blind_set(
    model: CaptionModel,
    held_out: dict[str, list[Caption]],
    seed: int,
    templates: int = 12,
    per_source: int = 6,
    settings: SamplingSettings | None = None,
    versus: Versus | None = None,
) -> tuple[list[BlindItem], dict[str, str]]:
    """Shuffled items and their key (item id -> "product", "human", or with ``versus`` to
    compare in the same sheet, "versus" for the captions it writes)."""
    rng = random.Random(seed)
    settings = settings or SamplingSettings()
    pairs: list[tuple[str, Caption, str]] = []
    for index, slug in enumerate(popular_templates(held_out, model, templates)):
        human = rng.sample(held_out[slug], min(per_source, len(held_out[slug])))
        counts = [len(c) for c in human]
        product = product_captions(model, slug, counts, settings, seed + index)
        pairs += [(slug, c, "human") for c in human] + [(slug, c, "product") for c in product]
        if versus is not None:
            other = product_captions(versus.writer, slug, counts, versus.settings, seed + index)
            pairs += [(slug, c, "versus") for c in other]
    return shuffled([(slug, boxes, (), source) for slug, boxes, source in pairs], seed, rng)


@dataclass(frozen=True)
class NewTemplate:
    """A template the model was never trained on, as a curator gives it (a name and example
    captions, which are also what the rater is shown of its format), with people's captions
    of it to judge beside the product's."""

    name: str
    examples: list[Caption]
    people: list[Caption]


def read_new_templates(text: str) -> list[NewTemplate]:
    """Templates from JSON: [{"name", "examples": ["top | bottom", ...], "people": [...]}, ...];
    ValueError says what is wrong. Names are unique; every caption of a template has its
    examples' box count."""
    entries = json.loads(text)
    if not isinstance(entries, list) or not entries:
        raise ValueError("expected a non-empty JSON list of templates")
    templates: list[NewTemplate] = []
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
            raise ValueError(f"each template needs a name, examples and people's captions, not {entry!r:.80}")
        name = entry["name"].strip()
        if any(t.name == name for t in templates):
            raise ValueError(f"{name}: listed twice")
        examples, people = caption_list(entry, "examples"), caption_list(entry, "people")
        if len({len(c) for c in examples + people}) != 1:
            raise ValueError(f"{name}: examples and people's captions need one box count")
        templates.append(NewTemplate(name, examples, people))
    return templates


def caption_list(entry: dict[str, Any], field_name: str) -> list[Caption]:
    """A template's ``field_name``: a non-empty list of "top | bottom" texts, as boxes."""
    texts = entry.get(field_name)
    if not isinstance(texts, list) or not texts or not all(isinstance(t, str) and t.strip() for t in texts):
        raise ValueError(f"{entry['name']}: {field_name} must be a non-empty list of captions")
    return [[box.strip() for box in t.split("|")] for t in texts]


def build_new_template_set(
    model: CaptionModel,
    templates: Sequence[NewTemplate],
    seed: int,
    per_source: int = 6,
    settings: SamplingSettings | None = None,
    versus: Versus | None = None,
) -> tuple[list[BlindItem], dict[str, str]]:
    """Product captions for templates the model never saw, written as the pipeline's jobs ask
    for them (no model name, the curator's examples), shuffled with people's captions; with
    ``versus``, its captions of the same requests too."""
    rng = random.Random(seed)
    settings = settings or SamplingSettings()
    rows: list[tuple[str, Caption, tuple[str, ...], str]] = []
    for index, template in enumerate(templates):
        examples = [caption_text(c) for c in template.examples]
        request = CaptionRequest(None, len(template.examples[0]), examples=examples, n=per_source)
        writers = [("product", model, settings)] + (
            [("versus", versus.writer, versus.settings)] if versus else []
        )
        for source, writer, sampling in writers:
            written = writer.write([request], sampling, rng_seed=seed + index)
            rows += [(template.name, c.boxes, (), source) for c in written]
        human = rng.sample(template.people, min(per_source, len(template.people)))
        rows += [(template.name, c, (), "human") for c in human]
    return shuffled(rows, seed, rng)


def shuffled(
    rows: list[tuple[str, Caption, tuple[str, ...], str]], seed: int, rng: random.Random
) -> tuple[list[BlindItem], dict[str, str]]:
    """(template, boxes, keywords, source) rows shuffled under opaque ids, and the key."""
    rng.shuffle(rows)
    items, key = [], {}
    for position, (slug, boxes, keywords, source) in enumerate(rows):
        item_id = hashlib.sha256(f"{seed}:{position}".encode()).hexdigest()[:8]
        items.append(BlindItem(item_id, slug, boxes, keywords))
        key[item_id] = source
    return items, key


def readers_may_ask(keyword: str) -> bool:
    """Whether the site would take this keyword from a reader (a refused one makes no prompt)."""
    try:
        clean_keywords([keyword])
    except KeywordError:
        return False
    return True


KeywordPrompt = tuple[str, Caption, list[str]]  # template, the human caption, 1-3 of its keywords


def keyword_prompts(
    held_out: dict[str, list[Caption]], model: CaptionModel, count: int, rng: random.Random
) -> list[KeywordPrompt]:
    """``count`` held-out captions of known templates, each with 1-3 of its one-word keywords
    that a reader could ask for and the model has seen in training (a known word: people's
    captions also hold "slleps", "peeewdiepieeee" and "tutelay", which no reader would ask for),
    drawn as evaluate_captions' keyword prompts are."""
    items = [(slug, boxes) for slug, caps in held_out.items() if model.knows(slug) for boxes in caps]
    known = model.vocabulary.words
    return keyword_draws(items, count, rng, lambda k: readers_may_ask(k) and (not known or k in known))


def build_keyword_set(
    model: CaptionModel,
    held_out: dict[str, list[Caption]],
    seed: int,
    per_source: int = 60,
    settings: SamplingSettings | None = None,
    versus: Versus | None = None,
) -> tuple[list[BlindItem], dict[str, str]]:
    """Held-out human captions with 1-3 of their own keywords, and one product caption per
    prompt written for the same template, box count and keywords (``CaptionModel.write`` at
    the product's settings, as a reader's make-a-meme request asks), shuffled; and the key.
    A prompt whose every candidate the filters refused has no product row. With ``versus``,
    one "versus" caption per prompt too."""
    rng = random.Random(seed)
    prompts = keyword_prompts(held_out, model, per_source, rng)
    requests = [CaptionRequest(slug, len(boxes), keywords, n=1) for slug, boxes, keywords in prompts]
    written = model.write(requests, settings or SamplingSettings(), rng_seed=seed)
    rows = [(slug, boxes, tuple(keywords), "human") for slug, boxes, keywords in prompts]
    rows += [(prompts[c.request_index][0], c.boxes, tuple(c.keywords), "product") for c in written]
    if versus is not None:
        other = versus.writer.write(requests, versus.settings, rng_seed=seed)
        rows += [(prompts[c.request_index][0], c.boxes, tuple(c.keywords), "versus") for c in other]
    return shuffled(rows, seed, rng)


def format_references(
    training: dict[str, list[Caption]], templates: Sequence[str], seed: int, count: int = 4
) -> list[FormatReference]:
    """A few training captions per template, so a rater knows each template's joke format."""
    rng = random.Random(seed)
    return [
        FormatReference(slug, rng.sample(training[slug], min(count, len(training[slug]))))
        for slug in templates
    ]


def blind_sheet(items: Sequence[BlindItem], questions: Sequence[str] = QUESTIONS) -> str:
    """The CSV a rater fills in: id, template, (keywords,) caption, and one empty column per
    question. Keywords are joined with ", "."""
    out = io.StringIO()
    writer = csv.writer(out)
    with_keywords = any(item.keywords for item in items)
    writer.writerow(["id", "template", *(["keywords"] if with_keywords else []), "caption", *questions])
    for item in items:
        asked = [", ".join(item.keywords)] if with_keywords else []
        writer.writerow(
            [item.item_id, item.template, *asked, caption_text(item.boxes), *[""] * len(questions)]
        )
    return out.getvalue()


def read_ratings(sheet: str, questions: Sequence[str] = QUESTIONS) -> dict[str, dict[str, int]]:
    """Ratings per item id from a filled-in sheet; every answer must be 0 or 1."""
    ratings: dict[str, dict[str, int]] = {}
    for line, row in enumerate(csv.DictReader(io.StringIO(sheet)), start=2):
        answers = {q: (row.get(q) or "").strip() for q in questions}
        bad = [q for q, a in answers.items() if a not in ("0", "1")]
        if bad:
            raise ValueError(f"line {line} ({row.get('id')}): {', '.join(bad)} must be 0 or 1")
        ratings[row["id"]] = {q: int(a) for q, a in answers.items()}
    return ratings


def wilson(successes: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% at z = 1.96)."""
    if total == 0:
        return 0.0, 1.0
    p = successes / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def unblind(
    ratings: dict[str, dict[str, int]], key: dict[str, str], questions: Sequence[str] = QUESTIONS
) -> dict[str, dict[str, Rate]]:
    """Per source and question: count, total, rate and Wilson interval; also the pairs of
    questions in BOTH that the set asks."""
    missing = sorted(set(key) - set(ratings))
    if missing:
        raise ValueError(f"{len(missing)} items have no rating, e.g. {missing[0]}")
    report: dict[str, dict[str, Rate]] = {}
    for source in [s for s in SOURCES if s in key.values()]:
        rows = [ratings[i] for i, s in key.items() if s == source]
        answers = {q: [r[q] for r in rows] for q in questions}
        for name, (a, b) in BOTH.items():
            if a in questions and b in questions:
                answers[name] = [r[a] * r[b] for r in rows]
        report[source] = {
            q: {
                "yes": sum(a),
                "of": len(a),
                "rate": round(sum(a) / max(1, len(a)), 3),
                "wilson95": wilson(sum(a), len(a)),
            }
            for q, a in answers.items()
        }
    return report


def discriminator_accuracy(product: Sequence[str], human: Sequence[str], seed: int = 0) -> float:
    """5-fold accuracy of a fresh TF-IDF + logistic regression telling product from human text."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline, make_union

    size = min(len(product), len(human))
    texts = list(product[:size]) + list(human[:size])
    labels = [1] * size + [0] * size
    features = make_union(
        TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, min_df=2),
        TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True, min_df=2),
    )
    classifier = make_pipeline(features, LogisticRegression(C=2.0, max_iter=2000))
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=seed)
    return float(cross_val_score(classifier, texts, labels, cv=folds).mean())


def rules_page(questions: Sequence[str]) -> str:
    """rules.md for a rater of a set asking ``questions``: what to do, then the rules."""
    rules = KEYWORD_RULES if tuple(questions) == KEYWORD_QUESTIONS else RULES
    return f"# Rating rules\n\n{RATER_NOTE.format(count=len(questions))}\n\n{rules}"
