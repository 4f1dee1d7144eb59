"""Refused words found however they are disguised: leetspeak, masks, separators, joined words.

Works on ``plain_form`` text (lower-case ASCII). Each whitespace token is read several ways:

* its letters with leetspeak read as letters (``sh1t``, ``@ss``, ``$hit``, ``b1+ch``, ``cvnt``) and the pieces
  between punctuation (``bull-shit``), each piece and their join (``f.u.c.k``, ``a-s-s``);
* with ``*``, ``#`` or ``%`` standing for hidden letters (``f**k``, ``b*tch``, ``hillarysh*t``), and
  ``@`` between letters in a word of four letters or more too (``f@ck``: read as an "a" it hides
  the word);
* runs of one- and two-letter tokens joined, however spaced (``f u c k``, ``bi t c h``,
  ``b i tc h``), and two or three short tokens joined when that makes a refused word or starts
  with a ``word*`` entry (``fu ck``, ``mother fu cker``);
* ``word*`` entries are found inside longer words (``hillaryshit``) unless the word is listed
  as ordinary (``scunthorpe``);
* then as it sounds and a letter off (``phuq``, ``fux``, ``biitch``): see ``spelling``.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generation.moderation.lists import listed_lines
from generation.moderation.spelling import Spellings, spellings

WORDS_FILE = Path(__file__).with_name("refused_words.txt")
ORDINARY_PHRASES_FILE = Path(__file__).with_name("ordinary_phrases.txt")

MASKS = "*#%"
# Punctuation stripped from a token's ends; leetspeak symbols and masks are kept.
EDGE = "".join(c for c in string.punctuation if c not in MASKS + "@$")
LEET = str.maketrans("013457895@$", "oieastbgsas")
LEET_BETWEEN_LETTERS = {"!": "i", "|": "i", "+": "t", "<": "c", "(": "c"}  # "sh!t", "b1+ch", "fu<k"
LEET_SYMBOL = re.compile(r"(?<=[a-z])[!|+<(](?=[a-z])")
NOT_LETTERS = re.compile(r"[^a-z]+")
AT_BETWEEN_LETTERS = re.compile(r"(?<=[a-z])@(?=[a-z])")
MASK_RUN = re.compile(f"[{re.escape(MASKS)}]+")
MASKED_WORD = re.compile(f"[a-z{re.escape(MASKS)}]+")  # letters and masks only: "f**k", not "^$&*("
# Triple parentheses around one word or name, "(((they)))": the antisemitic "echo" no word list
# can hold. Hugs are written so too, and whole phrases ("(((inhales deeply)))", an ImgFlip caption).
ECHO = re.compile(r"\({3}\s*([a-z][a-z'-]*)\s*\){3}")
ECHO_HUGS = frozenset({"hug", "hugs"})
STRETCH = re.compile(r"([a-z])\1{2,}")  # a letter held three times or more
MAX_JOINED = 3  # tokens joined when they make a refused word exactly ("fu ck", "f uc k")
MAX_FRAGMENT = 4  # letters: only tokens this short are joined so (a refused word split in parts)
MAX_SPACED = 12  # tokens of a run of one- and two-letter tokens read as one word ("m o t h e r f u c k e r")


@dataclass(frozen=True)
class Lexicon:
    words: frozenset[str]  # refused as whole words
    roots: tuple[str, ...]  # refused inside words too
    ordinary: frozenset[str]  # words holding a root that are not refused for it
    endings: tuple[str, ...]  # refused at the end of a longer word ("stankass", "dickass")
    ordinary_endings: tuple[str, ...]  # longer endings that are ordinary ("glass", "compass")
    phrases: tuple[tuple[str, ...], ...]  # refused as consecutive words
    ordinary_phrases: tuple[tuple[str, ...], ...]  # whose words are not read ("moby dick")
    spelled: Spellings  # the same words spelled as they sound, or a letter off

    @property
    def any_root(self) -> re.Pattern[str]:
        return _any_root(self.roots)

    def refuses(self, word: str) -> bool:
        if word in self.words:
            return True
        if self.any_root.search(word) is not None and word not in self.ordinary:
            return True
        return self.refused_ending(word)

    def refused_ending(self, word: str) -> bool:
        """``*word`` entries ending a word with 3 letters or more before them ("stankass"),
        unless the word ends in an ordinary ending ("sunglass", "compass", "harass")."""
        stem = word.removesuffix("es")
        return any(
            len(stem) >= len(end) + 3 and stem.endswith(end) for end in self.endings
        ) and not stem.endswith(self.ordinary_endings)

    def refuses_start(self, word: str) -> bool:
        """A join of pieces is refused when it is a refused word or starts with a root
        (``sh.itty``); roots elsewhere in a join would hit ordinary pairs (``push-it``)."""
        if word in self.words:
            return True
        return word not in self.ordinary and any(word.startswith(root) for root in self.roots)


@lru_cache(maxsize=4)
def _any_root(roots: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, roots)))


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    words: set[str] = set()
    roots: list[str] = []
    ordinary: set[str] = set()
    near: set[str] = set()
    endings: list[str] = []
    ordinary_endings: list[str] = []
    phrases: list[tuple[str, ...]] = []
    for entry in listed_lines(WORDS_FILE):
        if entry.startswith("!*"):
            ordinary_endings.append(entry[2:])
        elif entry.startswith("*"):
            endings.append(entry[1:])
        elif entry.startswith("!"):
            ordinary.add(entry[1:])
        elif entry.startswith("~"):
            near.add(entry[1:])
        elif " " in entry:
            if any(mask in entry for mask in "*!~"):  # a phrase is matched word for word, as written
                raise ValueError(f"{WORDS_FILE.name}: a phrase is plain words, not {entry!r}")
            phrases.append(tuple(entry.split()))
        elif entry.endswith("*"):
            roots.append(entry[:-1])
            words.add(entry[:-1])
        else:
            words.update((entry, entry + "s", entry + "es"))
    refused = frozenset(words - ordinary)  # "fawk" gives "fawkes": "!fawkes" takes it back
    return Lexicon(
        refused,
        tuple(roots),
        frozenset(ordinary),
        tuple(endings),
        tuple(ordinary_endings),
        tuple(phrases),
        tuple(_listed_phrases(ORDINARY_PHRASES_FILE)),
        spellings(refused, tuple(roots), near),
    )


@dataclass(frozen=True)
class Token:
    core: str  # the token without edge punctuation, masks kept
    pieces: tuple[str, ...]  # its letter runs once leetspeak is read as letters

    @property
    def joined(self) -> str:
        return "".join(self.pieces)


def read_token(raw: str) -> Token:
    if raw.isalpha():  # most tokens: a plain word (``plain_form`` text is ASCII)
        return Token(raw, (raw,))
    core = raw.strip(EDGE)
    unmasked = core.strip(MASKS).replace("'", "")  # "don't" is one word
    if any(c.isalpha() or c in "@$" for c in unmasked):  # a word, or symbols only ("@$$")
        unmasked = LEET_SYMBOL.sub(lambda m: LEET_BETWEEN_LETTERS[m.group()], unmasked.translate(LEET))
    pieces = tuple(p for p in NOT_LETTERS.split(unmasked) if p) or ((unmasked,) if unmasked else ())
    return Token(core, pieces)


def other_forms(word: str) -> tuple[str, ...]:
    """A word with letters held (``fuuuuck``, ``shiiiit``, ``asss``) as one letter and as two,
    and with v read as u (``cvnt``, ``fvcking``)."""
    forms = (STRETCH.sub(r"\1", word), STRETCH.sub(r"\1\1", word)) if STRETCH.search(word) else ()
    return (*forms, word.replace("v", "u")) if "v" in word else forms


def read_tokens(plain: str) -> list[Token]:
    """The tokens of a ``plain_form`` text, punctuation-only ones left out."""
    return [t for t in map(read_token, plain.split()) if t.core]


def refused_word(tokens: list[Token]) -> str | None:
    """The first refused word the tokens show, in the form found, or None; the words of an
    ordinary phrase ("moby dick", ``ordinary_phrases.txt``) are not read."""
    words = lexicon()
    return next(_candidates(without_ordinary_phrases(tokens, words), words), None)


def echoed_word(plain: str) -> str | None:
    """The word a ``plain_form`` text puts in an antisemitic echo, "(((they)))", or None."""
    return next((m.group(1) for m in ECHO.finditer(plain) if m.group(1) not in ECHO_HUGS), None)


def _listed_phrases(path: Path) -> list[tuple[str, ...]]:
    return [tuple(line.split()) for line in listed_lines(path)]


def without_ordinary_phrases(tokens: list[Token], words: Lexicon) -> list[Token]:
    """The tokens less those that spell an ordinary phrase, word for word."""
    covered = {
        start + offset
        for start, phrase in _phrase_starts([t.joined for t in tokens], words.ordinary_phrases)
        for offset in range(len(phrase))
    }
    return [t for i, t in enumerate(tokens) if i not in covered] if covered else tokens


def _candidates(tokens: list[Token], words: Lexicon) -> Iterator[str]:
    for token in tokens:
        yield from (piece for piece in token.pieces if words.refuses(piece))
        yield from (form for piece in token.pieces for form in other_forms(piece) if words.refuses(form))
        if len(token.pieces) > 1 and words.refuses_start(token.joined):
            yield token.joined
        if any(mask in token.core for mask in MASKS):
            yield from _masked(token.core, words)
        if "@" in token.core and AT_BETWEEN_LETTERS.search(token.core) and len(token.joined) > 3:
            yield from _masked(AT_BETWEEN_LETTERS.sub("*", token.core), words)  # not "c@t"
    yield from _spaced(tokens, words)
    yield from _phrases([t.joined for t in tokens], words)
    yield from _spelled(tokens)


def _spelled(tokens: list[Token]) -> Iterator[str]:
    """Words that sound like a refused word or are a letter off from one (``phuq``, ``biitch``)."""
    for token in tokens:
        yield from (piece for piece in token.pieces if spelled_refused(piece))
        if len(token.pieces) > 1 and spelled_refused(token.joined):  # "fuh-q"
            yield token.joined


# Words repeat (Zipf): once warm, most of a caption's words were read before, a look-up (~0.1 µs)
# instead of the two readings (~8 µs a word); 64k words is a few MB.
@lru_cache(maxsize=1 << 16)
def spelled_refused(word: str) -> bool:
    return lexicon().spelled.refuses(word)


def _spaced(tokens: list[Token], words: Lexicon) -> Iterator[str]:
    """Runs of one- and two-letter tokens (``f u c k``, ``bi t c h``) and short tokens that join
    into a refused word (``fu ck``)."""
    forms = [t.joined for t in tokens]
    yield from _spaced_runs(forms, words)
    for start, form in enumerate(forms):
        if len(form) > MAX_FRAGMENT:
            continue
        for count in range(2, MAX_JOINED + 1):
            parts = forms[start : start + count]
            short = len(parts) == count and all(len(p) <= MAX_FRAGMENT for p in parts)
            if short and words.refuses_start(joined := "".join(parts)):
                yield joined


def _spaced_runs(forms: list[str], words: Lexicon) -> Iterator[str]:
    """Every stretch of a run of one- and two-letter tokens holding two single letters or more,
    read as one word: spacing a word out letter by letter is rarely regular ("bi t c h"). A
    stretch holding three single letters or more is also read as it sounds (``p h u q``); others
    only exactly, since "q is" or "a ss" are too common to read loosely."""
    run: list[str] = []
    for form in [*forms, ""]:
        if 0 < len(form) <= 2:
            run.append(form)
            continue
        if sum(len(part) == 1 for part in run) >= 2:
            for start in range(len(run) - 1):
                for end in range(start + 2, min(len(run), start + MAX_SPACED) + 1):
                    joined = "".join(run[start:end])
                    loose = sum(len(part) == 1 for part in run[start:end]) >= 3  # not "q is"
                    if words.refuses(joined) or (loose and spelled_refused(joined)):
                        yield joined
        run = []


def _phrases(forms: list[str], words: Lexicon) -> Iterator[str]:
    yield from (" ".join(phrase) for _, phrase in _phrase_starts(forms, words.phrases))


def _phrase_starts(
    forms: list[str], phrases: tuple[tuple[str, ...], ...]
) -> Iterator[tuple[int, tuple[str, ...]]]:
    """(position, phrase) for each phrase the forms spell, word for word, its last word also
    with -s or -es ("camel jockeys")."""
    for start, form in enumerate(forms):
        for phrase in phrases:
            said = forms[start : start + len(phrase)]
            if phrase[0] == form and len(said) == len(phrase) and _says(said, phrase):
                yield start, phrase


def _says(said: list[str], phrase: tuple[str, ...]) -> bool:
    *first, last = phrase
    return said[:-1] == first and said[-1] in (last, last + "s", last + "es")


def _masked(core: str, words: Lexicon) -> Iterator[str]:
    """Refused words a masked token can stand for: ``f**k`` as a whole word (a run of masks
    for 1 to 2 more letters than it has masks), ``hillarysh*t`` with a root inside (a mask a
    letter)."""
    text = core.translate(LEET)
    # A leading mask is emphasis or a bullet ("*sigh", "*does"); masks on both sides are emphasis
    # around a word, nothing hidden ("*he*").
    text = text.strip(MASKS) if text[0] in MASKS and text[-1] in MASKS else text.lstrip(MASKS)
    if MASKED_WORD.fullmatch(text) is None:
        return
    letters = sum(c.isalpha() for c in core)  # written letters: "90%" is a number, not "go%"
    runs = MASK_RUN.findall(text)
    masks = sum(len(run) for run in runs)
    if not runs or letters == 0 or letters + masks < 3 or (letters < 2 and masks < 2):
        return
    parts = MASK_RUN.split(text)
    hidden = [f"[a-z]{{1,{len(run) + 2}}}" for run in runs]
    pattern = "".join(re.escape(part) + run for part, run in zip(parts, hidden, strict=False))
    whole = re.compile(pattern + re.escape(parts[-1]))
    yield from (word for word in sorted(words.words) if whole.fullmatch(word))
    for root in words.roots:
        for start in range(len(text) - len(root) + 1):
            window = text[start : start + len(root)]
            if any(c in MASKS for c in window) and all(
                c == r or c in MASKS for c, r in zip(window, root, strict=True)
            ):
                yield root
