"""Choosing which sampled captions to show: draw several per caption wanted, keep the best.

The small model's samples range from sensible to word salad; its own likelihood tells them
apart well enough to matter. Each candidate gets a cost (lower is better):

    nats per character of the caption given its template (scoring.caption_nats)
  + NONWORD_COST for each word never seen (at least KNOWN_WORD_MIN_COUNT times) in training
  + UNSEEN_PAIR_COST for each pair of neighbouring words never seen together in a training box
  + REPEAT_COST for each content word said again ("aliens are aliens | aliens")
  + BARE_KEYWORD_COST for each box that is only a requested keyword ("coffee | coffee to my coffee")
  + UNUSED_KEYWORD_COST for each requested keyword the caption leaves out
  + the sampling setting ``length_cost`` for each character of the caption

Likelihood alone prefers short, repetitive captions, which the repeat cost offsets. The keyword
costs choose, among captions that are otherwise alike, the one that works its keywords into a
sentence (the keyword boost alone left a bare keyword as a box in a third of them, until the
sampler held a box that opens with a keyword open past it).

A job shows many captions of one template, and the likeliest are alike ("aaaand it's gone"):
``choose_varied`` takes them cheapest first, each also paying OVERLAP_COST for the share of its
word pairs the captions already chosen for the same request use. Blind-rated figures for each
setting are in lab/CAPTIONS_LOG.md ("Judged blind"; in short in docs/captions.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from transformers import GPT2LMHeadModel, PreTrainedTokenizerBase

from generation.captions.keywords import keyword_form, uses_keyword
from generation.captions.prompt import caption_chars
from generation.captions.scoring import caption_nats
from generation.captions.text import WORD, Caption

KNOWN_WORDS_FILE = "known_words.txt"
KNOWN_PAIRS_FILE = "known_word_pairs.txt"
KNOWN_WORD_MIN_COUNT = 3  # seen this often in training: rarer "words" are mostly typos
KNOWN_PAIR_MIN_COUNT = 2  # 182k pairs of the 631k in training boxes; once-seen pairs are mostly noise
NONWORD_COST = 0.5  # nats/char; about the gap between a fluent caption and a rambling one
# nats/char per pair of neighbouring words never seen together: 21% of people's held-out pairs
# are unseen, 26% of the model's at T 1.0, and word salad strings them together (4-6 in a
# 12-pair caption), so a tenth of a nat each sets a salad caption ~0.5 behind a plain one.
UNSEEN_PAIR_COST = 0.1
OVERLAP_COST = 0.5  # nats/char for a caption whose every word pair is already shown in its job
REPEAT_COST = 0.25  # nats/char per content word said again
BARE_KEYWORD_COST = 1.0  # nats/char per box that is just a keyword: people do it in 4% of captions
UNUSED_KEYWORD_COST = 0.2  # nats/char per requested keyword left out: fitting ones win, all not forced
# Words whose repetition is ordinary English, not a stuck model.
FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "be",
        "it",
        "i",
        "you",
        "he",
        "she",
        "we",
        "they",
        "my",
        "your",
        "me",
        "that",
        "this",
        "so",
        "no",
        "not",
        "do",
        "don",
        "t",
        "s",
        "y",
        "u",
    ]
)


Pair = tuple[str, str]


@dataclass(frozen=True)
class Vocabulary:
    """The words and neighbouring word pairs training captions use often enough; an empty
    part costs nothing (a model trained before it existed)."""

    words: frozenset[str] = frozenset()
    pairs: frozenset[Pair] = frozenset()

    @classmethod
    def of(cls, captions: Iterable[Caption]) -> Vocabulary:
        boxes = [box for caption in captions for box in caption]
        return cls(frozenset(known_words([boxes])), frozenset(known_pairs(boxes)))

    def save(self, model_dir: Path) -> None:
        (Path(model_dir) / KNOWN_WORDS_FILE).write_text(
            "\n".join(sorted(self.words)) + "\n", encoding="utf-8"
        )
        lines = sorted(f"{a} {b}" for a, b in self.pairs)
        (Path(model_dir) / KNOWN_PAIRS_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, model_dir: Path) -> Vocabulary:
        words, pairs = Path(model_dir) / KNOWN_WORDS_FILE, Path(model_dir) / KNOWN_PAIRS_FILE
        pair_lines = pairs.read_text(encoding="utf-8").splitlines() if pairs.is_file() else []
        return cls(
            frozenset(words.read_text(encoding="utf-8").split()) if words.is_file() else frozenset(),
            frozenset((a, b) for a, _, b in (line.partition(" ") for line in pair_lines)),
        )


def known_words(captions: Iterable[Caption], min_count: int = KNOWN_WORD_MIN_COUNT) -> list[str]:
    """Sorted words that occur at least ``min_count`` times in the captions."""
    counts = Counter(word for boxes in captions for box in boxes for word in WORD.findall(box.lower()))
    return sorted(word for word, n in counts.items() if n >= min_count)


def known_pairs(boxes: Iterable[str], min_count: int = KNOWN_PAIR_MIN_COUNT) -> list[Pair]:
    """Neighbouring word pairs within a box that occur at least ``min_count`` times."""
    counts = Counter(pair for box in boxes for pair in word_pairs(box))
    return sorted(pair for pair, n in counts.items() if n >= min_count)


def word_pairs(box: str) -> Iterator[Pair]:
    return pairwise(WORD.findall(box.lower()))


def text_cost(boxes: Caption, known: Vocabulary, keywords: Sequence[str] = ()) -> float:
    """The cost of a caption's words alone: unknown words and word pairs, repeated content
    words, and how it uses its keywords."""
    per_box = [WORD.findall(box.lower()) for box in boxes]
    words = [w for box_words in per_box for w in box_words]
    nonwords = sum(w not in known.words for w in words) if known.words else 0
    unseen = (
        sum(p not in known.pairs for box_words in per_box for p in pairwise(box_words)) if known.pairs else 0
    )
    content = [w for w in words if w not in FUNCTION_WORDS]
    repeats = len(content) - len(set(content))
    return (
        NONWORD_COST * nonwords
        + UNSEEN_PAIR_COST * unseen
        + REPEAT_COST * repeats
        + BARE_KEYWORD_COST * sum(is_bare_keyword(box, keywords) for box in boxes)
        + UNUSED_KEYWORD_COST * sum(not uses_keyword(" ".join(boxes), k) for k in keywords)
    )


def is_bare_keyword(box: str, keywords: Sequence[str]) -> bool:
    """Whether a box says nothing but one of the keywords, in any case and word form ("Cats!")."""
    bare = box.lower().strip(" .,!?'\"")
    return bool(bare) and any(bare == k or keyword_form(bare) == keyword_form(k) for k in keywords)


Candidate = tuple[str, Caption, Sequence[str]]  # template slug, boxes, requested keywords


def caption_costs(
    model: GPT2LMHeadModel,
    tokenizer: PreTrainedTokenizerBase,
    candidates: Sequence[Candidate],
    known: Vocabulary,
    length_cost: float = 0.0,
) -> list[float]:
    """Cost of each candidate; one batched forward pass over them all."""
    nats = caption_nats(model, tokenizer, [(slug, boxes) for slug, boxes, _ in candidates])
    return [
        n / caption_chars(boxes) + text_cost(boxes, known, keywords) + length_cost * caption_chars(boxes)
        for n, (_, boxes, keywords) in zip(nats, candidates, strict=True)
    ]


def choose_varied(captions: Sequence[Caption], costs: Sequence[float], n: int) -> list[int]:
    """Indices of ``n`` captions, cheapest first, each also paying OVERLAP_COST times the share
    of its word pairs that the captions chosen before it already use."""
    pairs = [{p for box in boxes for p in word_pairs(box)} for boxes in captions]
    used: set[Pair] = set()
    left, chosen = list(range(len(captions))), list[int]()
    while left and len(chosen) < n:
        best = min(left, key=lambda i: costs[i] + OVERLAP_COST * len(pairs[i] & used) / max(1, len(pairs[i])))
        chosen.append(best)
        left.remove(best)
        used |= pairs[best]
    return chosen
