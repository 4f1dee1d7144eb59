"""Hateful or abusive meaning, judged by a linear classifier over words rather than a list.

A logistic regression over the words of ``plain_form`` text: single words, pairs and triples in
order, and, for each *anchor* the text holds (a group of people, or "you"), that anchor paired
with every other word. The anchors carry meaning a list of words cannot: "dead" and "kill" are
ordinary ("my phone should be dead", "kill me now") until a group or a person is what should be
dead ("china should be dead"). Every word naming a group (``groups.txt``) is read as one token,
``<group>``, so the classifier judges a group it never saw in training as it judges the others;
every first name (``names.txt``) likewise as ``<name>``, an anchor too, so that what is said to
"kevin" counts and the name itself does not.

The weights (``classifier.json``) are trained in the lab (``train_moderation``, from
``lab/moderation/training/``) and scored here in plain Python: ~20 dictionary look-ups a caption.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generation.moderation.lexicon import Token
from generation.moderation.lists import listed_lines

MODEL_FILE = Path(__file__).with_name("classifier.json")
GROUPS_FILE = Path(__file__).with_name("groups.txt")
NAMES_FILE = Path(__file__).with_name("names.txt")
GROUP = "<group>"
NAME = "<name>"
# Function words: alone, in a run of their own ("must be") or paired with an anchor ("<group>&the")
# they say nothing, and the short hateful lines of the training data would teach them otherwise.
# Words of time, and "whole", count as such too: the written explicit lines say "tonight" four
# times as often as the ordinary ones, and it had weighed 2.1 ("you galah / the bbq was for tonight"
# was refused; "the whole" weighed 1.5); read so, the tuning split's ordinary captions refused went
# from 61 to 51 of 7,123, for 1 fewer of its 4,191 to refuse caught.
STOP_WORDS_TEXT = """
    a about all also am an and any are as at be been being but by can could did do does doing
    dont each every for from had has have he her here him his how i if in into is it its just me
    must my no not now of on only or our out own same shall she should so some such than that the
    their them then there these they this those to too up very was we were what when where which
    while who whom why will with would yet im ive
    today tonight tonite tomorrow whole
"""
STOP_WORDS = frozenset(STOP_WORDS_TEXT.split())
PEOPLE = frozenset({"people", "folks", "folk", "ppl"})
# "ye", "yer", "youse": the reader in other Englishes (a writer's Irish and Scottish captions had
# taught the classifier "ye" and "yer" as words of the refused side).
YOU = frozenset(
    {"you", "u", "ya", "yall", "your", "ur", "yourself", "urself", "yourselves", "ye", "yer", "youse", "yous"}
)


@dataclass(frozen=True)
class Classifier:
    bias: float
    threshold: float  # probability at or above which a text is refused
    weights: dict[str, float]

    def probability(self, tokens: list[Token]) -> float:
        """P(hateful or abusive) of a text, from its ``read_tokens``."""
        weights = self.weights
        logit = self.bias + sum(weights.get(f, 0.0) for f in features(tokens))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))

    def refuses(self, tokens: list[Token]) -> bool:
        return self.probability(tokens) >= self.threshold

    def to_json(self) -> str:
        body = {"bias": self.bias, "threshold": self.threshold, "weights": dict(sorted(self.weights.items()))}
        return json.dumps(body, indent=0, separators=(",", ":")) + "\n"


@lru_cache(maxsize=1)
def classifier() -> Classifier:
    body = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    return Classifier(float(body["bias"]), float(body["threshold"]), dict(body["weights"]))


@lru_cache(maxsize=1)
def group_words() -> frozenset[str]:
    words = _listed_words(GROUPS_FILE)
    return frozenset(words | {w + "s" for w in words})


@lru_cache(maxsize=1)
def name_words() -> frozenset[str]:
    return frozenset(_listed_words(NAMES_FILE))


def _listed_words(path: Path) -> set[str]:
    return {word for line in listed_lines(path) for word in line.split()}


def words_of(tokens: list[Token]) -> list[str]:
    """The words of a text's tokens, leetspeak read, group words as ``<group>``, first names
    as ``<name>``."""
    groups, names = group_words(), name_words()
    out: list[str] = []
    for token in tokens:
        for word in token.pieces:
            if not word.isalpha() or (word in PEOPLE and out and out[-1] == GROUP):
                continue  # "black people" reads as "blacks"
            out.append(GROUP if word in groups else NAME if word in names else word)
    return out


def features(tokens: list[Token]) -> set[str]:
    """Content words, pairs and triples in order (not of function words alone), and each anchor
    (a group, a name, "you") with every content word.

    Groups and names stand only in anchor pairs, never alone or in a pair or triple: naming a
    group or a person is not what makes a caption hateful, what is said of them is.
    """
    words = words_of(tokens)
    content = set(words) - {GROUP, NAME} - YOU - STOP_WORDS
    found = set(content)
    found.update(_ngrams(words, 2))
    found.update(_ngrams(words, 3))
    for anchor in (GROUP, NAME):
        if anchor in words:
            found.update(f"{anchor}&{w}" for w in content)
    if YOU.intersection(words):
        found.update(f"you&{w}" for w in content)
    return found


def _ngrams(words: list[str], n: int) -> set[str]:
    runs = (words[i : i + n] for i in range(len(words) - n + 1))
    return {
        " ".join(run)
        for run in runs
        if GROUP not in run and NAME not in run and not STOP_WORDS.issuperset(run)
    }
