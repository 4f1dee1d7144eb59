"""Keywords of a caption, and the checks a user's keywords must pass.

The keyword-conditioned GPT-2 recipe uses spaCy: nouns raw; verbs, adjectives and adverbs
lemmatised; named entities and noun chunks; no pronouns or stop words. spaCy's English
pipelines cannot be installed here, so ``extract_keywords`` approximates it without a tagger:

* every word of 3+ letters that is not a stop word or pronoun is a candidate;
* its simplemma lemma is used, except when the word is only a plural of its lemma
  ("cats" stays "cats", as a raw noun would; "running" becomes "run", "funnier" "funny");
* two adjacent candidates with no stop word between stand in for a noun chunk or an entity
  ("pot pies", "metric system").

Everything that knows about languages stays behind this one function, so swapping in spaCy
where it exists changes no caller.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import simplemma
from anyascii import anyascii

from generation.captions.errors import KeywordError
from generation.moderation import refusal, shown_form

MAX_KEYWORDS = 3
MAX_KEYWORD_CHARS = 30

# spaCy's and NLTK's English stop words, pronouns and the filler words of meme captions.
STOP_WORDS_TEXT = """
    a about above after again against all almost also am an and any are aren as at be because been
    before being below between both but by can cannot could couldn did didn do does doesn doing don
    done down during each either else enough even ever every few for from further get gets getting
    got had hadn has hasn have haven having he her here hers herself him himself his how however i
    if in into is isn it its itself just least less let like ll made make makes many may me might
    mine more most much must mustn my myself neither never no nor not now of off often on once one
    only or other our ours ourselves out over own per please quite rather re really same say says
    said see seems shall shan she should shouldn since so some still such than that the their theirs
    them themselves then there these they this those though through thus to too under until up upon
    us ve very was wasn we were weren what whatever when where whether which while who whom whose
    why will with within without won would wouldn yet you your yours yourself yourselves im ive dont
    cant wont youre thats whats isnt doesnt didnt ur u ya yo oh ok okay yes yeah yep nope lol lmao
    gonna wanna gotta something anything nothing everything someone anyone everyone nobody thing
    things way lot lots going go goes went come comes came back well want wants know knows knew
    think time day guy guys people really
"""
STOP_WORDS = frozenset(STOP_WORDS_TEXT.split())
WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


@lru_cache(maxsize=200_000)
def keyword_form(word: str) -> str:
    """The form a word takes as a keyword: its lemma, unless it is only a plural noun."""
    lemma: str = simplemma.lemmatize(word, lang="en").lower()
    if word in (lemma + "s", lemma + "es") or not lemma.isalpha():
        return word
    return lemma


def candidate_keywords(text: str) -> list[str]:
    """Content words and adjacent content-word pairs of a caption, in order, without repeats."""
    out: list[str] = []
    previous: str | None = None
    for match in WORD.finditer(text.lower()):
        word = match.group()
        if "'" in word or len(word) < 3 or word in STOP_WORDS:
            previous = None
            continue
        form = keyword_form(word)
        if form in STOP_WORDS:
            previous = None
            continue
        out.append(form)
        if previous is not None:
            out.append(f"{previous} {word}")  # a chunk keeps its raw words, as spaCy's chunks do
        previous = word
    return list(dict.fromkeys(out))


def extract_keywords(text: str) -> list[str]:
    """Single-word and two-word keywords of ``text`` (see the module docstring)."""
    return candidate_keywords(text)


def uses_keyword(text: str, keyword: str) -> bool:
    """Whether a caption uses a keyword: every word of it, raw or as its keyword form."""
    words = WORD.findall(text.lower())
    words += [w.split("'")[0] for w in words if "'" in w]  # "yall're" uses "yall"
    forms = set(words) | {keyword_form(w) for w in words}
    return all(w in forms or keyword_form(w) in forms for w in keyword.split())


def clean_keywords(raw: Iterable[object]) -> list[str]:
    """Validate user keywords: at most 3, text, 1-30 chars, no special tokens, and passing the
    content check every shown text passes (``generation.moderation.refusal``).

    Keywords are folded as they will be drawn (NFKC: fullwidth letters become ASCII), lowercased,
    with whitespace folded, and Latin letters with marks written plainly (``in_plain_letters``);
    repeats are dropped silently. Raises KeywordError naming the first problem.
    """
    items = list(raw)
    if len(items) > MAX_KEYWORDS:
        raise KeywordError(f"at most {MAX_KEYWORDS} keywords are allowed, got {len(items)}")
    cleaned: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise KeywordError(f"keywords must be text, got {type(item).__name__}: {item!r}")
        word = shown_form(item).lower()
        if not word:
            raise KeywordError("keywords must not be empty")
        if len(word) > MAX_KEYWORD_CHARS:
            raise KeywordError(f"keyword {word[:40]!r} is over {MAX_KEYWORD_CHARS} characters")
        if "<|" in word or "|>" in word:
            raise KeywordError(f"keyword {word!r} contains token markers")
        if (refused := refusal(item)) is not None:  # as typed, so a message names what was typed
            raise KeywordError(f"keyword {word!r} {refused.message}")
        plain = in_plain_letters(word)
        if len(plain) > MAX_KEYWORD_CHARS:  # "ß" is written "ss"
            raise KeywordError(f"keyword {word[:40]!r} is over {MAX_KEYWORD_CHARS} characters")
        cleaned.append(plain)
    return list(dict.fromkeys(cleaned))


def in_plain_letters(word: str) -> str:
    """The keyword as the caption model can write it: it learnt from captions in plain
    ASCII, so it never writes an accent and ignored "café" where it writes "cafe". Latin
    letters with marks are written plainly (café -> cafe, jalapeño -> jalapeno, straße ->
    strasse); a letter of another script has no such spelling, and the keyword is refused
    with the reason rather than silently never used."""
    if word.isascii():
        return word
    others = [c for c in word if not c.isascii() and not unicodedata.name(c, "").startswith("LATIN")]
    if others:
        shown = " ".join(f"{c!r} (U+{ord(c):04X})" for c in dict.fromkeys(others))
        raise KeywordError(
            f"keyword {word!r} has letters the caption model cannot write: {shown}. "
            "It writes English in plain Latin letters (a-z), so type the keyword in those"
        )
    return "".join(c if c.isascii() else anyascii(c).lower() for c in word)
