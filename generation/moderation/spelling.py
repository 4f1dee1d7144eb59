"""Refused words spelled as they sound, or a letter off: ``phuq``, ``fux``, ``kunt``, ``biitch``.

Two readings of a word, tried once the exact ones in ``lexicon`` found nothing:

* its sound: ``sound_form`` folds spellings that sound alike (``ph`` → f; ``ck``, ``q`` and a hard
  ``c`` → k; ``x`` → ks; ``z`` → s; ``y`` inside a word → i; ``uh`` before a consonant → u; held
  letters as one), and a word that sounds like a refused word is refused (``phuq``, ``fuhk``,
  ``fuc`` and ``fuck`` all sound ``fuk``); a refused root's sound with an ending (``phuqing``) too;
* one letter off: a word one edit (a letter added, dropped or changed, or two neighbours
  swapped) from a refused word of 5 letters or more (``biitch``, ``fagit``, ``whorre``), or a
  letter added or two swapped in one of 4 (``shjit``, ``fcuk``), first letter kept. Disguises
  keep the first letter, and changing it is what turns "shit" into "whit" and "tits" into
  "bits"; a letter changed or dropped in a 4-letter word is how "that", "want" and "good" are
  spelled.

Both readings also hit ordinary words ("shot", "duck", "niger", "con"): those among the
ImgFlip575K captions are listed in ``ordinary_near_words.txt`` and never refused so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generation.moderation.lists import listed_lines

ORDINARY_FILE = Path(__file__).with_name("ordinary_near_words.txt")
MIN_NEAR = 4  # letters: shorter words are a letter off from too many ordinary ones ("as", "fag")
# letters: a refused word this long is refused with any one edit, shorter ones with a letter
# added or two swapped
ANY_EDIT = 5
VOWEL = re.compile("[aeiou]")  # a sound without one is an abbreviation ("fck"), read only as written
ENDINGS = ("ing", "in", "ed", "er", "ers", "es", "s", "y", "a", "az")  # after a refused root: "phuqing"
SOUNDS = (
    (re.compile(r"([^eo])\1+"), r"\1"),  # held letters ("fuuck", "cunnt"), not "oo" or "ee" ("cook")
    (re.compile(r"ph"), "f"),
    (re.compile(r"ck|q|c(?![eiy])"), "k"),  # "fuq", "fuk", "cok"
    (re.compile(r"c"), "s"),  # the soft c left: "ceiling"
    (re.compile(r"x"), "ks"),  # "fux" sounds "fucks"
    (re.compile(r"z"), "s"),  # "azzhole", "bitchez"
    (re.compile(r"(?<=.)y"), "i"),  # "shyt", "pussy"; a first y is a consonant ("yes")
    (re.compile(r"uh(?![aeiou])"), "u"),  # "fuhk", "fuhq"
    (re.compile(r"([^eo])\1+"), r"\1"),  # held again once folded: "fukk", "sks"
)


def sound_form(word: str) -> str:
    """How a lower-case word sounds, spelled one way: "phuq", "fuck" and "fuk" give "fuk"."""
    for pattern, replacement in SOUNDS:
        word = pattern.sub(replacement, word)
    return word


@dataclass(frozen=True)
class Spellings:
    sounds: frozenset[str]  # sound forms of refused words
    root_sounds: frozenset[str]  # sound forms of refused roots of MIN_NEAR letters or more
    near: dict[str, frozenset[str]]  # a refused word, or it less one letter: the refused words
    ordinary: frozenset[str]  # ordinary words the two readings would hit

    def refuses(self, word: str) -> bool:
        """Whether ``word`` (one letter run of a token) sounds like or is a letter off from a
        refused word, and is not a listed ordinary word."""
        if word in self.ordinary:
            return False
        return self.sounds_refused(sound_form(word)) or self.letter_off(word)

    def sounds_refused(self, sound: str) -> bool:
        if sound in self.sounds:
            return True
        return any(sound.endswith(ending) and sound[: -len(ending)] in self.root_sounds for ending in ENDINGS)

    def letter_off(self, word: str) -> bool:
        if len(word) < MIN_NEAR:
            return False
        keys = {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}
        targets = {target for key in keys for target in self.near.get(key, ())}
        return any(
            target[0] == word[0]
            and (len(target) >= ANY_EDIT or len(word) > len(target) or sorted(word) == sorted(target))
            and one_edit(word, target)
            for target in targets
        )


def one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by exactly one letter added, dropped or changed, or two
    neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    start = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    if len(a) < len(b):
        return a[start:] == b[start + 1 :]
    swapped = start + 1 < len(a) and a[start] == b[start + 1] and a[start + 1] == b[start]
    return a[start + 1 :] == b[start + 1 :] or (swapped and a[start + 2 :] == b[start + 2 :])


def spellings(words: frozenset[str], roots: tuple[str, ...], strong: set[str]) -> Spellings:
    """The readings of a lexicon's refused words: every word as it sounds, the ``strong`` ones
    (``~word`` entries) a letter off."""
    near: dict[str, set[str]] = {}
    for word in {w for w in strong if len(w) >= MIN_NEAR}:
        for key in {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}:
            near.setdefault(key, set()).add(word)
    return Spellings(
        sounds=frozenset(s for s in map(sound_form, words) if len(s) >= 3 and VOWEL.search(s)),
        root_sounds=frozenset(s for s in map(sound_form, roots) if len(s) >= MIN_NEAR),  # not "fag" + "in"
        near={key: frozenset(found) for key, found in near.items()},
        ordinary=ordinary_near_words(),
    )


@lru_cache(maxsize=1)
def ordinary_near_words() -> frozenset[str]:
    return frozenset(word for line in listed_lines(ORDINARY_FILE) for word in line.split())
