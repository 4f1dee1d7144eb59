"""Every setting of the caption model and its sampling, and what caption cleaning keeps.

A training run's own settings are the lab's (``lab/captions/config.py``). The prompt format is
fixed here, so the tokenizer, the lab's trainer and the sampler agree:

    <|tpl:Slug|><|kw|>word<|kw|>word<|caption|>first box<|box|>second box<|endoftext|>
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from functools import cache
from math import isfinite
from pathlib import Path
from typing import Any

from generation.captions.errors import SamplingError

EOS = "<|endoftext|>"
PAD = "<|pad|>"
KW = "<|kw|>"  # precedes each keyword
CAPTION = "<|caption|>"  # ends the prompt: the caption's first box follows
BOX = "<|box|>"  # between two boxes of one caption
GENERIC_TEMPLATE = "<|tpl:any|>"  # for templates the model has never seen
FIXED_SPECIAL_TOKENS = (EOS, PAD, KW, CAPTION, BOX, GENERIC_TEMPLATE)


def template_token(slug: str) -> str:
    """The special token of an ImgFlip template slug, e.g. ``<|tpl:Bad-Luck-Brian|>``."""
    return f"<|tpl:{slug}|>"


def trained_templates(model_dir: Path) -> frozenset[str] | None:
    """The template slugs a model directory was trained on, read off its tokenizer's special
    tokens without loading the model; None where the directory holds no model (a site whose
    caption workers run elsewhere)."""
    path = Path(model_dir) / "tokenizer.json"
    try:
        return _slugs_in(path, path.stat().st_mtime_ns)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


@cache
def _slugs_in(path: Path, modified: int) -> frozenset[str]:  # modified: a new model is read afresh
    tokens = [entry["content"] for entry in json.loads(path.read_text(encoding="utf-8"))["added_tokens"]]
    prefix, suffix = "<|tpl:", "|>"
    return frozenset(
        t[len(prefix) : -len(suffix)]
        for t in tokens
        if isinstance(t, str) and t.startswith(prefix) and t.endswith(suffix) and t != GENERIC_TEMPLATE
    )


@dataclass
class CaptionConfig:
    """Hyper-parameters of the GPT-2 that writes captions (saved as part of config.json)."""

    vocab_size: int = 6000  # BPE merges trained on lowercased captions; special tokens come on top
    n_positions: int = 128  # tokens; a 120-char caption plus prompt is ~45 tokens, blocks are 128
    n_embd: int = 256
    n_layer: int = 4
    n_head: int = 8
    dropout: float = 0.0  # under one epoch of data no dropout is needed
    tie_word_embeddings: bool = True  # saves vocab_size * n_embd parameters (~1.5M)


@dataclass(frozen=True)
class SamplingSettings:
    """Decoding settings; every Caption records the ones that made it."""

    # Top-k 40 cut a 6k-token vocabulary's tail so hard that distinct-2 fell to 0.43 (human
    # 0.74); plain nucleus sampling keeps it. T 0.9 with best-of-4 reranking was judged blind
    # coherent in 36% of captions against 25% at T 1.0 (lab/CAPTIONS_LOG.md, "Judged blind"), with
    # the model's distinct-2 0.65 (0.72 at T 1.0); T 0.8 gave 46% but distinct-2 0.50 as shown.
    temperature: float = 0.9
    top_k: int = 0  # 0 = off
    top_p: float = 0.95
    max_new_tokens: int = 40  # tokens; a 120-char caption (the longest kept in training) is ~35
    # Logit bonus (nats) on the first token of each requested keyword until the caption starts
    # one: the small model alone used a requested keyword in too few captions. 6 nats took
    # keyword use from 0.28 to ~0.92 of captions on the validation split, but pushed keywords
    # into sentences the model could not finish: judged blind in two sheets, 3 nats made keyword
    # captions coherent in 32% against 22% and used a keyword sensibly in 30% against 25%, at
    # the price of keyword adherence 0.94 -> 0.84; with shorter captions, two more sheets chose
    # 2 nats over 3 the same way (coherent 39% against 33%, used sensibly 31% against 24%), a
    # keyword used at all in 75% of captions against 82%; the 13M model uses keywords more on its
    # own, and two more sheets chose 1 nat over 2 (coherent 46% against 37%, used sensibly 38%
    # against 34%), a keyword used in 77% against 85%; and four more chose 0 over 1, the keyword
    # left to the prompt alone (used sensibly 60% against 49%, coherent 62% against 55%), a
    # keyword used in 78% against 87% (lab/CAPTIONS_LOG.md, "Keyword sets"). Above 0 it is a setting
    # for a site that wants its readers' keywords in more captions at the cost of their sense.
    keyword_boost: float = 0.0
    # Share of keyword_boost given to a keyword at a box's start; mid-box it gets all of it. At 1
    # the boost opened a box with the keyword in 64-74% of keyword captions (people 25-30%), and
    # held open (below) such boxes left 20% of samples unfinished; at 0 keywords enter mid-box
    # (docs/captions.md, "Keywords in boxes").
    keyword_start_share: float = 0.0
    # True lets a keyword that opens a box also close it ("coffee | coffee to my coffee"), as the
    # sampler did before: a bare keyword box in 19-24% of keyword captions (people 5-8%); held
    # open, 0%.
    bare_keyword_boxes: bool = False
    # Classifier-free guidance towards the template (1 = off): the model also saw 10% of its
    # training captions under the generic template token, so log p(x|generic) is the caption
    # prior and guiding away from it brings out the template's own phrasing. On the validation
    # split 2.0 took template fidelity from 0.58 to 1.35-1.40 with distinct-2 still ~0.72.
    template_guidance: float = 2.0
    # A template shows in how its captions open ("one does not simply", "y u no"): guiding the
    # first 8, 12 or 16 tokens scored as guiding whole captions (1.12, 1.18, 1.12 against
    # 1.14-1.21 over seeds, on the first-phase model), and the rest runs at the unguided speed.
    guided_tokens: int = 12
    # Candidates drawn per caption shown; the likeliest (rerank.py) are kept. 1 = no choice.
    candidates: int = 4
    # Captions asked for keywords have more to get right (the keyword, used sensibly, in a caption
    # that still makes sense), so more are drawn to choose from: best of 8 against best of 4,
    # judged blind in two sheets, used sensibly 40.0% against 30.0%, coherent 45.8% against 36.7%.
    # Only readers' make-a-meme requests carry keywords, so the feed's jobs do not pay for it.
    keyword_candidates: int = 8
    # The model's captions lose their thread as they run on: rated coherent in 71% of its
    # captions under 30 characters and 13% at 60-80 (people's 91-95% at every length). Two
    # settings ask for shorter ones; together (median 47 -> 32 characters) they were judged
    # coherent in 62.5% of captions against 46.5% in two sheets with two fresh raters, in format
    # as often (lab/CAPTIONS_LOG.md, "Shorter captions").
    # Nats/char added to a candidate's cost per character of its caption (rerank.py).
    length_cost: float = 0.01
    # Logit bonus (nats, before temperature) on ending a box or the caption wherever the
    # constraints allow it: a box ends sooner, where the model already thinks ending plausible.
    # 1.5 with the 13M-parameter model: at 2 its distinct-2 was 0.595, under the 0.60 floor
    # (0.613 at 1.5); judged blind at 1.5 against the 4.75M model at 2: coherent 67% against 58%.
    # 1.0 with the run's end (step 12,000), whose distinct-2 at 1.5 was 0.594: at 1.0 it is 0.625
    # and 0.621 over two seeds; judged blind against the step-8,000 model at 1.5 in six sheets it
    # read alike on plain captions (coherent 69.7% against 71.8%, funny 12.7% against 11.1%) and
    # used keywords sensibly more often (62.1% against 57.5%, four sheets; lab/CAPTIONS_LOG.md).
    end_bonus: float = 1.0
    # A template the model was never trained on, given example captions, is written under the
    # trained template those examples read likeliest under (Scumbag Steve's token for a new Bad
    # Luck Brian), its examples' box openings still forced (unseen.py): on eight such templates
    # its people's captions scored 1.013 nats/char under that token against 1.048 under the
    # generic one; judged blind against openings alone, coherent 24% against 20%, in format 24%
    # against 19% (two sheets; over the six sheets it was in, 18.8% and 22.2%).
    borrow_template: bool = True
    max_attempts: int = 4  # rounds of resampling for captions the filters reject
    oversample: float = 1.3  # first round asks for this many times n, filters will reject some

    def __post_init__(self) -> None:
        problems = [
            f"{name} must be a finite number, not {value}"
            for name, value in asdict(self).items()
            if isinstance(value, float) and not isfinite(value)
        ]
        if problems:
            raise SamplingError("; ".join(problems))
        rules = (
            ("temperature", self.temperature > 0, "above 0"),
            ("top_k", self.top_k >= 0, "0 (off) or more"),
            ("top_p", 0 < self.top_p <= 1, "above 0 and at most 1"),
            ("max_new_tokens", self.max_new_tokens >= 1, "at least 1"),
            ("keyword_boost", self.keyword_boost >= 0, "0 (off) or more"),
            ("keyword_start_share", 0 <= self.keyword_start_share <= 1, "between 0 and 1"),
            ("template_guidance", self.template_guidance >= 0, "0 or more (1 = off)"),
            ("guided_tokens", self.guided_tokens >= 0, "0 or more"),
            ("candidates", self.candidates >= 1, "at least 1"),
            ("keyword_candidates", self.keyword_candidates >= 1, "at least 1"),
            ("length_cost", self.length_cost >= 0, "0 (off) or more"),
            ("end_bonus", self.end_bonus >= 0, "0 (off) or more"),
            ("max_attempts", self.max_attempts >= 1, "at least 1"),
            ("oversample", self.oversample >= 1, "at least 1"),
        )
        problems = [f"{name} must be {rule}, not {getattr(self, name)}" for name, ok, rule in rules if not ok]
        if problems:
            raise SamplingError("; ".join(problems))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def changed(self, text: str) -> SamplingSettings:
        """A copy with the ``name=value`` pairs of ``text`` (space- or comma-separated), as the
        commands and benchmarks that compare settings take them; SamplingError names a bad pair."""
        types = {f.name: str(f.type) for f in fields(self)}
        changes: dict[str, Any] = {}
        for pair in text.replace(",", " ").split():
            name, _, value = pair.partition("=")
            if name not in types or not value:
                raise SamplingError(f"{pair!r} is not name=value of a sampling setting ({', '.join(types)})")
            try:
                changes[name] = SETTING_PARSERS[types[name]](value)
            except ValueError:
                raise SamplingError(f"{value!r} is not a value for {name}") from None
        return replace(self, **changes)


def parse_bool(text: str) -> bool:
    """true/yes/1 or false/no/0; anything else (a typo such as "ture") is a ValueError."""
    value = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}.get(text.lower())
    if value is None:
        raise ValueError(text)
    return value


SETTING_PARSERS: dict[str, Callable[[str], Any]] = {"float": float, "int": int, "bool": parse_bool}


@dataclass
class CleaningRules:
    """What prepare_captions keeps (Imgflip's prior art: 10-82 chars, ASCII, English, unique)."""

    min_chars: int = 10  # whole caption, boxes joined with " | "
    max_chars: int = 120  # our median is 55 chars; 120 keeps two-box captions the char CNN dropped
    max_word_chars: int = 25  # longer "words" are keyboard mashing or URLs
    min_letter_share: float = 0.6  # letters over non-space characters
    languages: tuple[str, ...] = field(
        default=(
            "ENGLISH",
            "SPANISH",
            "FRENCH",
            "GERMAN",
            "PORTUGUESE",
            "ITALIAN",
            "DUTCH",
            "INDONESIAN",
            "TAGALOG",
            "ROMANIAN",
        )
    )
