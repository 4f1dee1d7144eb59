"""Content check: how often it catches what must be refused and refuses what is ordinary.

    .venv/bin/python bench/moderation.py [--split report|holdout|tune] [--show] [--baselines]
        [--sample Too-Damn-High --boxes 2 --count 200] [--imgflip 20000]

Reads bench/data/moderation/<split>/refuse.txt (profane, explicit, slurs, hateful or abusive)
and ordinary.txt (everyday captions, mild words included), runs ``generation.moderation.refusal``
on every line and prints both error rates, the cost per caption in microseconds, and with
``--show`` every mistake. ``--baselines`` measures the old word-list filter and
alt-profanity-check (if installed) on the same files; ``--sample`` has the caption model write
captions for one template and counts how many each check refuses; ``--imgflip`` counts how many
of that many real ImgFlip575K captions (hash bucket 9, never used to train or list anything) the
check refuses, by reason. Thresholds were tuned on ``tune``; ``holdout`` was carved at random
from the lines written with the last round of tuning before any tuning; ``report``, when
present, was written after tuning by someone who had not seen the check, and is the figure to
quote.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generation.moderation import refusal
from lab.moderation.train import MEASURED_BUCKET, in_measured_bucket, real_captions

DATA = Path(__file__).resolve().parent / "data" / "moderation"
TIMING_ROUNDS = 7  # passes over every caption of the split when timing
IMGFLIP = Path("/work/shared/datasets/imgflip575k/memes")


def read_set(path: Path) -> list[str]:
    return [text for _, text in read_sections(path)]


def read_sections(path: Path) -> list[tuple[str, str]]:
    """(section, caption) pairs; a section starts at a "# -- title (count)" line."""
    section = ""
    out: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# -- "):
            section = line[5:].rsplit(" (", 1)[0]
        elif line.strip() and not line.startswith("# "):
            out.append((section, line))
    return out


def by_section(path: Path, refused: bool) -> None:
    """How each section of a file fared: caught (refuse.txt) or wrongly refused (ordinary.txt)."""
    counts: dict[str, list[int]] = {}
    for section, text in read_sections(path):
        counts.setdefault(section, [0, 0])[0] += refusal(text) is not None
        counts[section][1] += 1
    verb = "caught" if refused else "wrongly refused"
    for section, (hits, total) in counts.items():
        print(f"  {path.parent.name}/{path.name} {section}: {verb} {hits}/{total} = {hits / total:.1%}")


def rates(
    check: Callable[[str], bool], refuse: list[str], ordinary: list[str]
) -> tuple[list[str], list[str]]:
    """What the check let through from ``refuse`` and refused from ``ordinary``."""
    return [t for t in refuse if not check(t)], [t for t in ordinary if check(t)]


def report(name: str, missed: list[str], wrong: list[str], refuse: list[str], ordinary: list[str]) -> None:
    caught = len(refuse) - len(missed)
    print(
        f"{name:<28} caught {caught}/{len(refuse)} = {caught / len(refuse):.1%}   "
        f"ordinary refused {len(wrong)}/{len(ordinary)} = {len(wrong) / len(ordinary):.1%}"
    )


def cost_per_caption(texts: list[str]) -> float:
    """Microseconds per caption, caches warm (the pipeline checks captions all day): the best of
    TIMING_ROUNDS passes, since other work on a shared machine only ever adds time."""
    for text in texts:
        refusal(text)
    passes = []
    for _ in range(TIMING_ROUNDS):
        start = time.perf_counter()
        for text in texts:
            refusal(text)
        passes.append(time.perf_counter() - start)
    return min(passes) / len(texts) * 1e6


def old_word_list() -> Callable[[str], bool]:
    """The filter this check replaced: better-profanity's list and its leetspeak substitutions as
    one regex, matched on the text as written and with punctuation inside words dropped."""
    import better_profanity

    leet = {"a": "a@*4", "i": "i*l1", "o": "o*0@", "u": "u*v", "v": "v*u", "l": "l1", "e": "e*3"}
    leet |= {"s": "s$5", "t": "t7"}
    listing = Path(better_profanity.__file__).parent / "profanity_wordlist.txt"
    entries = {e.strip().lower() for e in listing.read_text(encoding="utf-8").splitlines() if e.strip()}
    variants = sorted(
        (
            r"\s+".join(
                "".join(f"[{re.escape(leet[c])}]" if c in leet else re.escape(c) for c in w)
                for w in e.split()
            )
            for e in entries
        ),
        key=len,
        reverse=True,
    )
    pattern = re.compile(r"(?<![\w@$*])(?:" + "|".join(variants) + r")(?![\w@$*])")

    def check(text: str) -> bool:
        lowered = text.lower()
        squeezed = re.sub(r"[^\w\s@$*|]", "", lowered)
        return any(pattern.search(t) is not None for t in (lowered, squeezed))

    return check


def baselines(refuse: list[str], ordinary: list[str]) -> None:
    try:
        report("old word list", *rates(old_word_list(), refuse, ordinary), refuse, ordinary)
        from profanity_check import predict_prob
    except ImportError as error:
        print(f"{error.name} is not installed: pip install -r requirements-dev.txt")
        return
    for threshold in (0.5, 0.8):

        def check(text: str, threshold: float = threshold) -> bool:
            return bool(predict_prob([text])[0] >= threshold)

        report(f"alt-profanity-check >= {threshold}", *rates(check, refuse, ordinary), refuse, ordinary)


def sampled_captions(model_dir: Path, template: str, boxes: int, count: int) -> None:
    """Captions the model writes for one template, unfiltered: how many each check refuses."""
    from generation.captions import CaptionRequest, SamplingSettings
    from generation.captions.model import load_caption_model
    from generation.captions.text import caption_text

    class AcceptAll:
        def reason(self, boxes: list[str]) -> None:
            return None

    model = load_caption_model(model_dir, device="cpu")
    model.filter = AcceptAll()  # type: ignore[assignment]
    requests = [CaptionRequest(template, boxes, n=min(64, count - i)) for i in range(0, count, 64)]
    written = model.write(requests, SamplingSettings(), rng_seed=0)
    texts = [caption_text(c.boxes) for c in written]
    old = old_word_list()
    print(f"{len(texts)} captions the model wrote for {template}, unfiltered:")
    print(f"  old word list refuses {sum(map(old, texts))}")
    print(f"  generation.moderation refuses {sum(refusal(t) is not None for t in texts)}")
    for text in texts:
        if refusal(text) is not None:
            print(f"    {text}  [{refusal(text)}]")


def imgflip_captions(directory: Path, count: int) -> list[str]:
    """``count`` ImgFlip575K captions of the measured bucket, drawn at random (seed 0), lower
    case, boxes joined with " | ", 10-120 characters: as the training and tuning draws were made."""
    drawn = sorted({text for text in real_captions(directory) if in_measured_bucket(text)})
    random.Random(0).shuffle(drawn)
    return drawn[:count]


def imgflip_refusals(directory: Path, count: int, show: bool) -> None:
    """How many real captions the check refuses, by reason. Some hold real profanity: read them
    (``--show``) to tell the false refusals from the right ones."""
    texts = imgflip_captions(directory, count)
    found = [(text, why) for text in texts if (why := refusal(text)) is not None]
    reasons: dict[str, int] = {}
    for _, why in found:
        reasons[why.reason] = reasons.get(why.reason, 0) + 1
    print(
        f"{len(texts)} ImgFlip575K captions (bucket {MEASURED_BUCKET}): "
        f"{len(found)} refused = {len(found) / len(texts):.2%}"
    )
    for reason, n in sorted(reasons.items()):
        print(f"  {reason}: {n} = {n / len(texts):.2%}")
    if show:
        print(*(f"  [{why.reason}] {text}" for text, why in found), sep="\n")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    splits = sorted(p.name for p in DATA.iterdir() if p.is_dir())
    parser.add_argument("--split", choices=splits, default="report" if "report" in splits else "holdout")
    parser.add_argument("--show", action="store_true", help="print every mistake")
    parser.add_argument("--baselines", action="store_true", help="also measure the old filters")
    parser.add_argument(
        "--sample", metavar="TEMPLATE", help="also sample a template's captions (ImgFlip slug)"
    )
    parser.add_argument("--boxes", type=int, default=2, help="the sampled template's box count")
    parser.add_argument("--count", type=int, default=200, help="captions to sample")
    parser.add_argument("--model", type=Path, default=Path("models/captions"), help="caption model directory")
    parser.add_argument(
        "--imgflip", type=int, metavar="N", help="also count refusals of N ImgFlip575K captions"
    )
    parser.add_argument("--imgflip-dir", type=Path, default=IMGFLIP, help="ImgFlip575K's memes/ directory")
    args = parser.parse_args()
    refuse = read_set(DATA / args.split / "refuse.txt")
    ordinary = read_set(DATA / args.split / "ordinary.txt")
    missed, wrong = rates(lambda t: refusal(t) is not None, refuse, ordinary)
    print(f"split {args.split}: {len(refuse)} to refuse, {len(ordinary)} ordinary")
    report("generation.moderation", missed, wrong, refuse, ordinary)
    by_section(DATA / args.split / "refuse.txt", refused=True)
    by_section(DATA / args.split / "ordinary.txt", refused=False)
    cost = cost_per_caption(refuse + ordinary)
    print(f"cost: {cost:.0f} µs a caption (one core, warm, best of {TIMING_ROUNDS} passes)")
    if args.baselines:
        baselines(refuse, ordinary)
    if args.imgflip:
        imgflip_refusals(args.imgflip_dir, args.imgflip, args.show)
    if args.sample:
        sampled_captions(args.model, args.sample, args.boxes, args.count)
    if args.show:
        print("\nlet through:", *missed, sep="\n  ")
        print("\nwrongly refused:", *(f"{t}  [{refusal(t)}]" for t in wrong), sep="\n  ")


if __name__ == "__main__":
    main()
