"""Choosing which sampled captions to show: draw several per caption wanted, keep the best.

The small model's samples range from sensible to word salad; its own likelihood tells them
apart well enough to matter. Each candidate gets a cost (lower is better):

    nats per character of the caption given its template (scoring.caption_nats)
  + NONWORD_COST for each word never seen (at least KNOWN_WORD_MIN_COUNT times) in training
  + REPEAT_COST for each content word said again ("aliens are aliens | aliens")
  + BARE_KEYWORD_COST for each box that is only a requested keyword ("coffee | coffee to my coffee")
  + UNUSED_KEYWORD_COST for each requested keyword the caption leaves out

Likelihood alone prefers short, repetitive captions, which the repeat cost offsets. The keyword
costs choose, among captions that are otherwise alike, the one that works its keywords into a
sentence (the sampler's keyword boost alone left a bare keyword as a box in a third of them). Blind-rated
figures for each setting are in docs/captions.md ("Judged blind").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from transformers import GPT2LMHeadModel, PreTrainedTokenizerBase

from generation.captions.data import Caption
from generation.captions.keywords import keyword_form, uses_keyword
from generation.captions.prompt import caption_chars
from generation.captions.scoring import caption_nats

KNOWN_WORDS_FILE = "known_words.txt"
KNOWN_WORD_MIN_COUNT = 3  # seen this often in training: rarer "words" are mostly typos
NONWORD_COST = 0.5  # nats/char; about the gap between a fluent caption and a rambling one
REPEAT_COST = 0.25  # nats/char per content word said again
BARE_KEYWORD_COST = 1.0  # nats/char per box that is just a keyword: people do it in 4% of captions
UNUSED_KEYWORD_COST = 0.2  # nats/char per requested keyword left out: fitting ones win, all not forced
WORD = re.compile(r"[a-z]+")
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


def known_words(captions: Iterable[Caption], min_count: int = KNOWN_WORD_MIN_COUNT) -> list[str]:
    """Sorted words that occur at least ``min_count`` times in the captions."""
    counts = Counter(word for boxes in captions for box in boxes for word in WORD.findall(box.lower()))
    return sorted(word for word, n in counts.items() if n >= min_count)


def save_known_words(words: Sequence[str], model_dir: Path) -> None:
    (Path(model_dir) / KNOWN_WORDS_FILE).write_text("\n".join(words) + "\n", encoding="utf-8")


def load_known_words(model_dir: Path) -> frozenset[str]:
    """The model's training vocabulary, or an empty set (no non-word cost) if it has none."""
    path = Path(model_dir) / KNOWN_WORDS_FILE
    return frozenset(path.read_text(encoding="utf-8").split()) if path.is_file() else frozenset()


def text_cost(boxes: Caption, known: frozenset[str], keywords: Sequence[str] = ()) -> float:
    """The cost of a caption's words alone: unknown words, repeated content words, and how
    it uses its keywords."""
    words = [w for box in boxes for w in WORD.findall(box.lower())]
    nonwords = sum(w not in known for w in words) if known else 0
    content = [w for w in words if w not in FUNCTION_WORDS]
    repeats = len(content) - len(set(content))
    return (
        NONWORD_COST * nonwords
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
    known: frozenset[str],
) -> list[float]:
    """Cost of each candidate; one batched forward pass over them all."""
    nats = caption_nats(model, tokenizer, [(slug, boxes) for slug, boxes, _ in candidates])
    return [
        n / caption_chars(boxes) + text_cost(boxes, known, keywords)
        for n, (_, boxes, keywords) in zip(nats, candidates, strict=True)
    ]
