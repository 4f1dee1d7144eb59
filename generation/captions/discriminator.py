"""How much a caption reads like the model's own samples rather than people's captions.

The small model's captions have a voice a reader hears: stock phrasings it falls back on, and
word choices no person makes. A logistic regression trained to tell the model's samples from
people's training captions, over each box's words and neighbouring word pairs (a box's first and
last word marked as such), gives every candidate a logit: above 0 it reads more like the model.
Reranking (rerank.py) adds ``SamplingSettings.discriminator_weight`` times that logit to a
candidate's cost, so of several fluent candidates the one that sounds least like a model is shown.

The features are binary, scaled to unit length as TF-IDF's are, so a long caption's log-odds
grow with the square root of its features, not their count. The weights (``discriminator.json``
beside the model) are trained by ``python manage.py train_caption_discriminator`` and scored here
in plain Python; a model directory without the file gets no discriminator cost.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from generation.captions.config import SamplingSettings
from generation.captions.data import WORD, Caption
from generation.captions.types import CaptionRequest

if TYPE_CHECKING:  # sampling loads torch; scoring does not need it
    from generation.captions.model import CaptionModel

DISCRIMINATOR_FILE = "discriminator.json"
BOX_START, BOX_END = "<b>", "</b>"
# The model's samples at the temperatures a setting might use: the discriminator learns its
# voice, not one temperature's.
SAMPLE_TEMPERATURES = (0.8, 0.9, 1.0)
MIN_FEATURE_COUNT = 2  # features seen once are mostly one caption's typo


@dataclass(frozen=True)
class Discriminator:
    bias: float = 0.0
    weights: dict[str, float] = field(default_factory=dict)

    def model_logit(self, boxes: Sequence[str]) -> float:
        """Log-odds that a caption is the model's rather than a person's; 0 without weights."""
        if not self.weights:
            return 0.0
        found = features(boxes)
        if not found:
            return self.bias
        return self.bias + sum(self.weights.get(f, 0.0) for f in found) / math.sqrt(len(found))

    def to_json(self) -> str:
        body = {"bias": self.bias, "weights": dict(sorted(self.weights.items()))}
        return json.dumps(body, indent=0, separators=(",", ":")) + "\n"

    def save(self, model_dir: Path) -> None:
        (Path(model_dir) / DISCRIMINATOR_FILE).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, model_dir: Path) -> Discriminator:
        path = Path(model_dir) / DISCRIMINATOR_FILE
        if not path.is_file():
            return cls()
        body = json.loads(path.read_text(encoding="utf-8"))
        return cls(float(body["bias"]), {str(k): float(v) for k, v in body["weights"].items()})


def features(boxes: Sequence[str]) -> set[str]:
    """Each box's words, and its neighbouring word pairs with the box's start and end marked."""
    found: set[str] = set()
    for box in boxes:
        words = WORD.findall(box.lower())
        found.update(words)
        found.update(f"{a} {b}" for a, b in pairwise([BOX_START, *words, BOX_END]))
    return found


@dataclass(frozen=True)
class DiscriminatorData:
    model_captions: list[Caption]
    human_captions: list[Caption]


def discriminator_data(
    writer: CaptionModel, human: dict[str, list[Caption]], count: int, seed: int
) -> DiscriminatorData:
    """``count`` of the model's raw samples (one candidate each, no reranking) and as many
    people's captions, for templates the writer knows, with people's box counts."""
    rng = random.Random(seed)
    known = sorted(slug for slug, captions in human.items() if captions and writer.knows(slug))
    if not known:
        raise ValueError("none of these captions' templates is one the model knows")
    per_request = 8
    samples: list[Caption] = []
    for round_, temperature in enumerate(SAMPLE_TEMPERATURES):
        wanted = count // len(SAMPLE_TEMPERATURES) + (round_ < count % len(SAMPLE_TEMPERATURES))
        slugs = [rng.choice(known) for _ in range(math.ceil(wanted / per_request))]
        requests = [CaptionRequest(slug, len(rng.choice(human[slug])), n=per_request) for slug in slugs]
        written = writer.write(
            requests, SamplingSettings(temperature=temperature, candidates=1), seed + round_
        )
        samples += [c.boxes for c in written][:wanted]
    pool = [c for slug in known for c in human[slug]]
    size = min(len(samples), len(pool))  # as many of each: the log-odds start from even
    return DiscriminatorData(samples[:size], rng.sample(pool, size))


def train_discriminator(data: DiscriminatorData, c: float = 1.0) -> Discriminator:
    """A logistic regression on the features, model samples labelled 1."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    texts = data.model_captions + data.human_captions
    counts = Counter(f for boxes in texts for f in features(boxes))
    kept = [{f for f in features(boxes) if counts[f] >= MIN_FEATURE_COUNT} for boxes in texts]
    rows = [{f: 1 / math.sqrt(len(found)) for f in found} for found in kept]
    labels = [1] * len(data.model_captions) + [0] * len(data.human_captions)
    vectorizer = DictVectorizer()
    fitted = LogisticRegression(C=c, max_iter=4000).fit(vectorizer.fit_transform(rows), labels)
    weights = {
        name: round(float(w), 4)
        for name, w in zip(vectorizer.get_feature_names_out(), fitted.coef_[0], strict=True)
        if round(float(w), 4) != 0.0
    }
    return Discriminator(round(float(fitted.intercept_[0]), 4), weights)


def accuracy(discriminator: Discriminator, data: DiscriminatorData) -> float:
    """Share of captions put on the right side of 0 (model samples above, people's below)."""
    right = sum(discriminator.model_logit(b) > 0 for b in data.model_captions) + sum(
        discriminator.model_logit(b) <= 0 for b in data.human_captions
    )
    return right / max(1, len(data.model_captions) + len(data.human_captions))
