"""A new template's joke format, read off the example captions its curator gave.

The model knows the formats of the templates it was trained on ("y u no …", "one does not
simply …"); a template a curator adds later gets the generic template token, and left at
that its captions ignore the format (0 of 64 "Futurama Fry" memes said "not sure if … or just …"
although the curator's examples did). Most meme formats are an opening phrase per box, so a new
template's captions are made to open each box as its examples do, and the model writes the rest.

    examples "not sure if trolling | or just stupid", "not sure if tired | or just lazy"
    openings ["not sure if", "or just"]

With two or more examples, a box's opening is the longest word prefix that most of them (more
than half, and at least two) share: with four examples, two that both open with "the" or "my"
are a coincidence, not a format. A single example is all the curator said of the format: its
first half of each box of three or more words is taken, with the stop words that follow it
("not sure if trolling" -> "not sure if").
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from generation.captions.keywords import STOP_WORDS

MAX_OPENING_WORDS = 5  # an opening longer than this is a caption, not a format


def example_boxes(examples: Sequence[str]) -> list[list[list[str]]]:
    """Example captions (boxes joined by " | ") as boxes of lowercased words."""
    return [[box.lower().split() for box in text.split("|")] for text in examples if text.strip()]


def box_opening(boxes: Sequence[Sequence[str]]) -> str:
    """The opening words of one box position across the examples that have it."""
    if len(boxes) == 1:
        return single_example_opening(boxes[0])
    support = max(2, len(boxes) // 2 + 1)
    best = ""
    for length in range(1, MAX_OPENING_WORDS + 1):
        counts = Counter(" ".join(words[:length]) for words in boxes if len(words) > length)
        prefix, count = counts.most_common(1)[0] if counts else ("", 0)
        if count < support:
            break
        best = prefix
    return best


def single_example_opening(words: Sequence[str]) -> str:
    """The first half of a box of three or more words, and any stop words right after it
    while a word is left to write ("not sure" + "if", then "trolling" is the model's)."""
    if len(words) < 3:
        return ""
    end = (len(words) + 1) // 2
    while end < len(words) - 1 and words[end] in STOP_WORDS:
        end += 1
    return " ".join(words[:end])


def openings(examples: Sequence[str], box_count: int) -> list[str]:
    """One opening per box ("" where the examples agree on none), for ``box_count`` boxes."""
    captions = [boxes for boxes in example_boxes(examples) if len(boxes) == box_count]
    return [box_opening([c[i] for c in captions]) if captions else "" for i in range(box_count)]


@dataclass(frozen=True)
class CaptionFormat:
    """What the caption model goes on for a template's joke format, in a curator's words."""

    source: str  # "trained", "examples", "none" or "unchecked" (no model here to ask)
    openings: tuple[str, ...]
    note: str

    unknown_key: bool = False  # a model_key the model was not trained on (a typo, most likely)

    @property
    def lacking(self) -> bool:
        """Whether saving the template should warn: no format at all, or a name the model lacks."""
        return self.source == "none" or self.unknown_key


def caption_format(
    model_key: str, trained: frozenset[str] | None, examples: Sequence[str], box_count: int
) -> CaptionFormat:
    """Where a template's format comes from: the model's training under ``model_key``, else the
    openings of its curator's examples (as sampling reads them), else nowhere, said plainly.
    ``trained`` is the model's template names (None: no model here to check the name against)."""
    if model_key and trained is None:
        note = f"Named “{model_key}” for the caption model, which is not on this server to check."
        return CaptionFormat("unchecked", (), note)
    if model_key in (trained or ()):
        note = "The caption model was trained on this template: its captions follow the format it learnt."
        return CaptionFormat("trained", (), note)
    new, unknown = "New to the caption model", bool(model_key)
    if model_key:
        close = difflib.get_close_matches(model_key, sorted(trained or ()), n=1)
        hint = f" (did you mean “{close[0]}”?)" if close else ""
        new = f"The caption model has no template named “{model_key}”{hint}, so this one is new to it"
    found = tuple(openings(examples, box_count))
    if any(found):
        shown = " | ".join(f"“{text} …”" if text else "…" for text in found)
        note = (
            f"{new}: each box opens as most of the examples do: {shown}. Beyond those words it does "
            "not know this template's joke: readers judged about a quarter of such captions in "
            "format and one in seven coherent, against four in five and seven in ten on templates "
            "it was trained on. If the model knows this template under another name, give that "
            "name as its model key."
        )
        return CaptionFormat("examples", found, note, unknown)
    examples = [text for text in examples if text.strip()]
    fitting = [boxes for boxes in example_boxes(examples) if len(boxes) == box_count]
    if not examples:
        what = "it has no example captions"
    elif not fitting:
        what = f"none of its example captions has {box_count} box(es)"
    else:
        what = "no opening words are shared by most of its example captions"
    borrowed = ", only the manner of the trained template its examples read most like" if fitting else ""
    note = (
        f"{new} and {what}, so its captions follow no format of its own{borrowed}. Give example "
        f"captions of {box_count} box(es), most of them (at least two) opening each box alike (“not "
        "sure if … | or just …”), or the caption model's name for this template."
    )
    return CaptionFormat("none", found, note, unknown)
