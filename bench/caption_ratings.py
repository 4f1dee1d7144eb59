"""What the blind ratings say about figures a program can compute on a caption.

    .venv/bin/python bench/caption_ratings.py [--judgements lab/judgements] [--model models/captions]
        [--imgflip ../shared/datasets/imgflip575k/memes]

Reads every rated plain set in ``--judgements`` (``ratings.csv`` and ``key.json``; keyword sets are
left out) and prints:

1. For the product's rated captions (``product`` and ``versus``), how well each figure alone
   orders them by the rater's "coherent" (ROC AUC, lower figure = coherent; 0.5 = no signal):
   characters, nats/char under the model, unseen word pairs, made-up words. Then a logistic
   regression on nats/char and characters (10-fold AUC) and the characters' weight over
   nats/char's: the length cost per character (``SamplingSettings.length_cost``) under which the
   reranking cost orders captions as the raters' coherence does.
2. With ``--imgflip``, whether ImgFlip575K's votes say what raters call funny: a word and
   character n-gram classifier of captions with 10 or more votes against ones with at most 1
   (every template; rated captions left out), its held-out AUC, then its AUC for "funny" on each
   source's rated captions.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import cross_val_predict
from sklearn.pipeline import make_pipeline, make_union

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generation.captions.model import load_caption_model
from generation.captions.prompt import caption_chars
from generation.captions.rerank import word_pairs
from generation.captions.scoring import caption_nats
from generation.captions.text import WORD, Caption, caption_text, normalize_caption

Rated = tuple[str, str, Caption, dict[str, int]]  # source, template, boxes, answers


def rated_captions(judgements: Path) -> list[Rated]:
    rows: list[Rated] = []
    for ratings in sorted(judgements.glob("*/ratings.csv")):
        key = json.loads((ratings.parent / "key.json").read_text(encoding="utf-8"))
        if key.get("questions", ["coherent"])[0] != "coherent":
            continue  # a keyword set
        with ratings.open(encoding="utf-8") as f:
            for row in csv.DictReader(f):
                answers = {q: int(row[q]) for q in ("coherent", "in_format", "funny")}
                boxes = [box.strip() for box in row["caption"].split(" | ")]
                rows.append((key["key"][row["id"]], row["template"], boxes, answers))
    return rows


def coherence_figures(rows: list[Rated], model_dir: Path) -> None:
    model = load_caption_model(model_dir)
    mine = [r for r in rows if r[0] != "human"]
    nats = caption_nats(model.model, model.tokenizer, [(template, boxes) for _, template, boxes, _ in mine])
    coherent = np.array([answers["coherent"] for *_, answers in mine])
    chars = np.array([caption_chars(boxes) for _, _, boxes, _ in mine], dtype=float)
    pairs = [[p for box in boxes for p in word_pairs(box)] for _, _, boxes, _ in mine]
    words = [WORD.findall(caption_text(boxes).lower()) for _, _, boxes, _ in mine]
    figures = {
        "characters": chars,
        "nats/char": np.array(nats) / chars,
        "unseen word pairs": np.array([sum(p not in model.vocabulary.pairs for p in ps) for ps in pairs]),
        "made-up words": np.array([sum(w not in model.vocabulary.words for w in ws) for ws in words]),
    }
    print(f"{len(mine)} rated product captions, {coherent.mean():.1%} coherent")
    for name, values in figures.items():
        print(f"  {name:>18}: AUC {roc_auc_score(coherent, -values):.3f}")
    both = np.column_stack([figures["nats/char"], chars])
    scaled = (both - both.mean(0)) / both.std(0)
    predicted = cross_val_predict(LogisticRegression(), scaled, coherent, cv=10, method="predict_proba")[:, 1]
    weights = LogisticRegression(C=100, max_iter=5000).fit(both, coherent).coef_[0]
    print(f"  nats/char and characters together: AUC {roc_auc_score(coherent, predicted):.3f} (10-fold)")
    print(f"  characters' weight over nats/char's: {weights[1] / weights[0]:.4f} nats/char per character")


def vote_figures(rows: list[Rated], imgflip: Path, seed: int = 1) -> None:
    rated = {caption_text(boxes) for _, _, boxes, _ in rows}
    high: list[str] = []
    low: list[str] = []
    for path in sorted(imgflip.glob("*.json")):
        for meme in json.loads(path.read_text(encoding="utf-8")):
            boxes = normalize_caption(meme.get("boxes", []))
            votes = str(meme.get("metadata", {}).get("img-votes") or 0).replace(",", "")
            if not boxes or not votes.isdigit() or caption_text(boxes) in rated:
                continue
            (high if int(votes) >= 10 else low if int(votes) <= 1 else []).append(caption_text(boxes))
    rng = random.Random(seed)
    rng.shuffle(low)
    low = low[: 2 * len(high)]
    texts = high + low
    labels = np.array([1] * len(high) + [0] * len(low))
    order = rng.sample(range(len(texts)), len(texts))
    cut = int(0.8 * len(order))
    classifier = make_pipeline(
        make_union(
            TfidfVectorizer(ngram_range=(1, 2), min_df=3, sublinear_tf=True),
            TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), min_df=5, sublinear_tf=True),
        ),
        LogisticRegression(max_iter=2000, class_weight="balanced"),
    )
    classifier.fit([texts[i] for i in order[:cut]], labels[order[:cut]])

    def vote_score(items: list[str]) -> np.ndarray:
        return np.asarray(classifier.predict_proba(items)[:, 1])

    held_out = vote_score([texts[i] for i in order[cut:]])
    print(f"{len(high)} ImgFlip captions with >= 10 votes against {len(low)} with <= 1:")
    print(f"  held-out AUC {roc_auc_score(labels[order[cut:]], held_out):.3f}")
    for source in ("human", "product", "versus"):
        mine = [(boxes, answers["funny"]) for src, _, boxes, answers in rows if src == source]
        funny = np.array([f for _, f in mine])
        if 0 < funny.sum() < len(funny):
            auc = roc_auc_score(funny, vote_score([caption_text(boxes) for boxes, _ in mine]))
            print(
                f"  {source:>8}: {funny.sum()} of {len(funny)} rated funny; AUC of the vote score {auc:.3f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--judgements", default="lab/judgements")
    parser.add_argument("--model", default="models/captions")
    parser.add_argument("--imgflip", default="", help="ImgFlip575K's memes/ folder (votes part)")
    args = parser.parse_args()
    rows = rated_captions(Path(args.judgements))
    coherence_figures(rows, Path(args.model))
    if args.imgflip:
        vote_figures(rows, Path(args.imgflip))


if __name__ == "__main__":
    main()
