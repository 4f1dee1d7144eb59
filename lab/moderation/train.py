"""Train the meaning classifier from the captions in ``training/``.

Lines with slots (``{group}``, ``{violent_verb}``, …) are filled with words drawn from the
check's own ``generation/moderation/groups.txt`` and ``training/slots.txt``; the rest are used as
written. ``written-refuse.txt`` and ``written-ordinary.txt`` are captions written as people type
them (explicit content, threats and hate in their own phrasing, and ordinary captions that share
their words); they weigh ``written_weight`` times a slot-filled line, so their few thousand lines
are not drowned by the tens of thousands of fillings and real captions. A logistic regression
(scikit-learn, class weights balanced) is fitted on the check's ``features()``, and the weights
that matter are written to the product's ``generation/moderation/classifier.json``. The settings
were chosen by leaving one writer's lines out at a time and measuring on them, never on the
report set.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from generation.moderation.classifier import Classifier, features, group_words, name_words
from generation.moderation.lexicon import read_tokens, refused_word
from generation.moderation.lists import listed_lines
from generation.moderation.text import plain_form

TRAINING_DIR = Path(__file__).with_name("training")
SLOT = re.compile(r"\{(\w+)\}")
# Labelled ordinary as they are: real captions (a random draw, ones naming a group, ones using
# harsh words) and single words.
ORDINARY_FILES = ("imgflip.txt", "imgflip-groups.txt", "imgflip-harsh-words.txt", "single-words.txt")
WRITTEN_REFUSE = "written-refuse.txt"
WRITTEN_ORDINARY = "written-ordinary.txt"
MEASURED_BUCKET = 9  # real captions whose blake2b-32 first byte mod 10 is 9 are measured, never trained on
MEASURED_SETS = Path(__file__).resolve().parents[2] / "bench" / "data" / "moderation"


@dataclass(frozen=True)
class TrainSettings:
    # Inverse L2 strength and the written lines' weight: with each of the first three writers' lines
    # left out in turn, C 4 and weight 3 caught 64% of their explicit, 52% of their threats and 77% of
    # their hateful captions (the check without them: 34%, 15%, 60%) while refusing 1.5% of their
    # ordinary captions that share those words and 0.9% of their everyday ones.
    c: float = 4.0
    written_weight: float = 3.0
    # Real ImgFlip575K captions (outside the measured bucket, no refused word) labelled ordinary.
    # The written lines alone taught the classifier how their writers write: it refused 1.0% of
    # 20,000 measured real captions for their meaning (the classifier before them 0.22%); with
    # 60,000 real ones beside them 0.41%, for 52% instead of 58% of a left-out writer's lines.
    real_captions: int = 60_000
    # P(hateful) at or above which a text is refused. With six writers' lines, 0.5 refused 1.0% of the
    # tuning split's ordinary captions and 0.62% of 20,000 measured real ones; 0.6 0.8% and 0.46%,
    # catching 94.0% of its captions to refuse against 94.5%.
    threshold: float = 0.6
    fills: int = 30  # fillings drawn for each line holding {slots}
    min_weight: float = 0.1  # smaller weights are dropped: same decisions on the tuning set, 1/4 the file
    seed: int = 0


def read_lines(name: str) -> list[str]:
    return listed_lines(TRAINING_DIR / name)


def read_slots() -> dict[str, list[str]]:
    """{name: words} from slots.txt, plus {group}: the group words, and {person}: first names."""
    slots = {"group": sorted(group_words()), "person": sorted(name_words())}
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


@dataclass(frozen=True)
class TrainingSet:
    texts: list[str]
    labels: list[int]  # 1 hateful, abusive or explicit; 0 ordinary
    weights: list[float]


def real_captions(memes_dir: Path) -> Iterator[str]:
    """Every ImgFlip575K caption in ``memes_dir`` (``memes/*.json``), lower case, boxes joined with
    " | ", 10-120 characters, in file order (repeats included)."""
    for path in sorted(memes_dir.glob("*.json")):
        for meme in json.loads(path.read_text(encoding="utf-8")):
            text = " ".join(
                " | ".join(b.strip() for b in meme.get("boxes", []) if b and b.strip()).lower().split()
            )
            if 10 <= len(text) <= 120:
                yield text


def in_measured_bucket(text: str) -> bool:
    return hashlib.blake2b(text.encode(), digest_size=4).digest()[0] % 10 == MEASURED_BUCKET


def measured_lines() -> set[str]:
    """Every caption of the measured sets, as " | "-joined lower case: never trained on."""
    lines: set[str] = set()
    for path in MEASURED_SETS.glob("*/*.txt"):
        for line in listed_lines(path):
            lines.add(" ".join(line.lower().replace(" / ", " | ").split()))
    return lines


def ordinary_real_captions(memes_dir: Path, count: int, seed: int) -> list[str]:
    """``count`` real captions drawn at random, none measured anywhere and none holding a refused
    word (the word list judges those; as ordinary lines they would teach that swearing is fine)."""
    measured = measured_lines()
    pool = sorted({t for t in real_captions(memes_dir) if not in_measured_bucket(t) and t not in measured})
    random.Random(seed).shuffle(pool)
    drawn: list[str] = []
    for text in pool:
        if len(drawn) == count:
            break
        if passes_word_list(text):
            drawn.append(text)
    return drawn


def passes_word_list(text: str) -> bool:
    """Whether the refused-word list lets ``text`` through, so the classifier is what judges it.

    The classifier only ever sees such texts. Trained on written lines the list refuses anyway,
    it learned the words around the swearing ("jizz on the keyboard again": "again" weighed 2.2)
    and refused 1.2% of the tuning split's ordinary captions ("the printer jammed / again")."""
    return refused_word(read_tokens(plain_form(text))) is None


def training_set(settings: TrainSettings, memes_dir: Path) -> TrainingSet:
    """Every training text with its label and weight; ``memes_dir`` (ImgFlip575K's ``memes/``)
    gives ``settings.real_captions`` real captions labelled ordinary."""
    rng = random.Random(settings.seed)
    hateful = filled(read_lines("hateful.txt"), settings.fills, rng)
    ordinary = filled(read_lines("ordinary.txt"), settings.fills, rng)
    for name in ORDINARY_FILES:
        ordinary += read_lines(name)
    ordinary += ordinary_real_captions(memes_dir, settings.real_captions, settings.seed)
    written_refuse = [t for t in read_lines(WRITTEN_REFUSE) if passes_word_list(t)]
    written_ordinary = [t for t in read_lines(WRITTEN_ORDINARY) if passes_word_list(t)]
    texts = hateful + ordinary + written_refuse + written_ordinary
    labels = (
        [1] * len(hateful) + [0] * len(ordinary) + [1] * len(written_refuse) + [0] * len(written_ordinary)
    )
    written = len(written_refuse) + len(written_ordinary)
    weights = [1.0] * (len(texts) - written) + [settings.written_weight] * written
    return TrainingSet(texts, labels, weights)


def train(settings: TrainSettings, memes_dir: Path) -> Classifier:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    data = training_set(settings, memes_dir)
    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform([dict.fromkeys(features(read_tokens(plain_form(t))), 1) for t in data.texts])
    model = LogisticRegression(C=settings.c, class_weight="balanced", max_iter=4000)
    model.fit(x, data.labels, sample_weight=data.weights)
    weights = {
        name: round(float(w), 4)
        for name, w in zip(vectorizer.get_feature_names_out(), model.coef_[0], strict=True)
        if abs(w) >= settings.min_weight
    }
    return Classifier(round(float(model.intercept_[0]), 4), settings.threshold, weights)
