"""Read ImgFlip575K-layout captions, clean them, and split off a validation set.

Layout: ``<dir>/memes/<Template-Slug>.json``, each a list of ``{"boxes": [...], "metadata": {...}}``.
A caption is a list of boxes (strings). Cleaning follows Imgflip's generator and says what it
dropped: lowercase, whitespace folded, typographic quotes made ASCII, empty boxes removed,
10-120 chars, ASCII only, junk (few letters, very long "words", links) and non-English dropped,
exact duplicates dropped (across templates). The validation split is chosen by a SHA-1 of the
caption text, so it is stable across runs and a held-out text never occurs in training.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

from generation.captions.config import CleaningRules
from generation.captions.text import Caption, caption_text, normalize_caption

LINK = re.compile(r"https?:|www\.|\.com\b|imgflip")


def load_memes(data_dir: Path) -> dict[str, list[Caption]]:
    """Captions per template slug, as stored (no cleaning)."""
    memes_dir = Path(data_dir) / "memes"
    if not memes_dir.is_dir():
        raise FileNotFoundError(f"{memes_dir} does not exist: expected <DIR>/memes/<Template-Slug>.json")
    out: dict[str, list[Caption]] = {}
    for path in sorted(memes_dir.glob("*.json")):
        items = json.loads(path.read_text(encoding="utf-8"))
        out[path.stem] = [[str(b) for b in item.get("boxes", [])] for item in items]
    return out


def junk_reason(boxes: Caption, rules: CleaningRules) -> str | None:
    """Why a normalised caption is dropped before the language check, or None to keep it."""
    text = caption_text(boxes)
    if not boxes:
        return "empty"
    if not rules.min_chars <= len(text) <= rules.max_chars:
        return "length"
    if not text.isascii():
        return "non_ascii"
    chars = text.replace(" ", "").replace("|", "")
    if sum(c.isalpha() for c in chars) < rules.min_letter_share * max(1, len(chars)):
        return "few_letters"
    if max(len(w) for w in text.split()) > rules.max_word_chars or LINK.search(text):
        return "junk_words"
    return None


def is_validation(text: str, share: float, salt: str = "") -> bool:
    """Stable split: the first 8 hex digits of SHA-1(salt + text) as a fraction of 16^8.

    A salt gives a split independent of the unsalted one (e.g. halves of the validation set).
    """
    return int(hashlib.sha1((salt + text).encode()).hexdigest()[:8], 16) < share * 16**8


def english_mask(texts: list[str], rules: CleaningRules) -> list[bool]:
    """True for texts lingua does not find clearly non-English (P(English) >= 0.15).

    Short English captions are often scored as German or Dutch; a low threshold drops only
    clear cases (Spanish, Tagalog, Romanian...). ~60 s for 358k captions on 2 cores.
    """
    from lingua import Language, LanguageDetectorBuilder

    languages = [getattr(Language, name) for name in rules.languages]
    detector = LanguageDetectorBuilder.from_languages(*languages).build()
    confidences = detector.compute_language_confidence_in_parallel(texts, Language.ENGLISH)
    return [p >= 0.15 for p in confidences]


def clean_captions(
    memes: dict[str, list[Caption]], rules: CleaningRules | None = None
) -> tuple[dict[str, list[Caption]], Counter[str]]:
    """Cleaned, de-duplicated captions per slug, and a count of what was dropped and why."""
    rules = rules or CleaningRules()
    report: Counter[str] = Counter()
    seen: set[str] = set()
    candidates: list[tuple[str, Caption]] = []
    for slug, captions in memes.items():
        for raw in captions:
            report["read"] += 1
            boxes = normalize_caption(raw)
            reason = junk_reason(boxes, rules)
            text = caption_text(boxes)
            if reason is None and text in seen:
                reason = "duplicate"
            if reason is not None:
                report[f"dropped_{reason}"] += 1
                continue
            seen.add(text)
            candidates.append((slug, boxes))
    keep = english_mask([caption_text(b) for _, b in candidates], rules) if candidates else []
    out: dict[str, list[Caption]] = {slug: [] for slug in memes}
    for (slug, boxes), english in zip(candidates, keep, strict=True):
        if english:
            out[slug].append(boxes)
        else:
            report["dropped_non_english"] += 1
    report["kept"] = sum(len(v) for v in out.values())
    return out, report


def split_captions(
    memes: dict[str, list[Caption]], val_share: float
) -> tuple[dict[str, list[Caption]], dict[str, list[Caption]]]:
    """(train, validation) by a stable hash of each caption's text."""
    train: dict[str, list[Caption]] = {}
    val: dict[str, list[Caption]] = {}
    for slug, captions in memes.items():
        train[slug] = [c for c in captions if not is_validation(caption_text(c), val_share)]
        val[slug] = [c for c in captions if is_validation(caption_text(c), val_share)]
    return train, val


def write_memes(out_dir: Path, memes: dict[str, list[Caption]]) -> None:
    """Write captions in ImgFlip575K layout so evaluate_captions --data can read them back."""
    memes_dir = Path(out_dir) / "memes"
    memes_dir.mkdir(parents=True, exist_ok=True)
    for slug, captions in memes.items():
        items = [{"boxes": boxes, "metadata": {}} for boxes in captions]
        (memes_dir / f"{slug}.json").write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")


def prepare(data_dir: Path, out_dir: Path, val_share: float = 0.02) -> dict[str, int]:
    """Clean ``data_dir``, write ``out_dir/train`` and ``out_dir/val``, return the report."""
    cleaned, report = clean_captions(load_memes(data_dir))
    train, val = split_captions(cleaned, val_share)
    write_memes(Path(out_dir) / "train", train)
    write_memes(Path(out_dir) / "val", val)
    summary = dict(report)
    summary["train"] = sum(len(v) for v in train.values())
    summary["val"] = sum(len(v) for v in val.values())
    (Path(out_dir) / "cleaning.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return summary
