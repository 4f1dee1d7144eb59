"""Train the meaning classifier from the captions in ``training/``.

Lines with slots (``{group}``, ``{violent_verb}``, …) are filled with words drawn from
``groups.txt`` and ``training/slots.txt``; the rest are used as written. A logistic regression
(scikit-learn, class weights balanced) is fitted on ``features()``, and the weights that matter
are written to ``classifier.json``. The refusal threshold is chosen on bench/data/moderation/tune, never on
the report set.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

from generation.moderation.classifier import Classifier, features, group_words
from generation.moderation.lexicon import read_tokens
from generation.moderation.text import plain_form

TRAINING_DIR = Path(__file__).with_name("training")
SLOT = re.compile(r"\{(\w+)\}")
# Labelled ordinary as they are: real captions (a random draw, ones naming a group, ones using
# harsh words) and single words.
ORDINARY_FILES = ("imgflip.txt", "imgflip-groups.txt", "imgflip-harsh-words.txt", "single-words.txt")


@dataclass(frozen=True)
class TrainSettings:
    c: float = 8.0  # inverse L2 strength, chosen on the tuning set
    threshold: float = 0.5  # P(hateful) at or above which a text is refused (chosen on the tuning set)
    fills: int = 30  # fillings drawn for each line holding {slots}
    min_weight: float = 0.1  # smaller weights are dropped: same decisions on the tuning set, 1/4 the file
    seed: int = 0


def read_lines(name: str) -> list[str]:
    text = (TRAINING_DIR / name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def read_slots() -> dict[str, list[str]]:
    """{name: words} from slots.txt, plus {group}: the group words."""
    slots = {"group": sorted(group_words())}
    for line in read_lines("slots.txt"):
        name, _, words = line.partition(":")
        slots[name.strip()] = [w.strip() for w in words.split("|")]
    return slots


def filled(lines: list[str], fills: int, rng: random.Random) -> list[str]:
    """Each line with {slots} filled ``fills`` times at random; a line without slots once."""
    slots = read_slots()
    out: list[str] = []
    for line in lines:
        if "{" not in line:
            out.append(line)
            continue
        out.extend(SLOT.sub(lambda m: rng.choice(slots[m.group(1)]), line) for _ in range(fills))
    return out


def training_set(settings: TrainSettings) -> tuple[list[str], list[int]]:
    """Texts and labels (1 hateful or abusive, 0 ordinary)."""
    rng = random.Random(settings.seed)
    hateful = filled(read_lines("hateful.txt"), settings.fills, rng)
    ordinary = filled(read_lines("ordinary.txt"), settings.fills, rng)
    for name in ORDINARY_FILES:
        ordinary += read_lines(name)
    return hateful + ordinary, [1] * len(hateful) + [0] * len(ordinary)


def train(settings: TrainSettings) -> Classifier:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    texts, labels = training_set(settings)
    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform([dict.fromkeys(features(read_tokens(plain_form(t))), 1) for t in texts])
    model = LogisticRegression(C=settings.c, class_weight="balanced", max_iter=2000)
    model.fit(x, labels)
    weights = {
        name: round(float(w), 4)
        for name, w in zip(vectorizer.get_feature_names_out(), model.coef_[0], strict=True)
        if abs(w) >= settings.min_weight
    }
    return Classifier(round(float(model.intercept_[0]), 4), settings.threshold, weights)
