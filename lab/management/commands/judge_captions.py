"""Blind judgement of the product's captions against human ones (docs/captions.md, "Judged blind").

With DJANGO_SETTINGS_MODULE=lab.settings:
python manage.py judge_captions build --data lab/runs/data --out lab/judgements/NAME --seed 7
python manage.py judge_captions build --keywords --out lab/judgements/NAME-keywords --seed 8
python manage.py judge_captions build --new-templates bench/data/new-templates.json --out DIR --seed 9
(a rater given sheet.csv, formats.md and rules.md of lab/judgements/NAME fills in the sheet as ratings.csv)
python manage.py judge_captions report --out lab/judgements/NAME
python manage.py judge_captions discriminate --data lab/runs/data -n 2000
"""

from __future__ import annotations

import json
import random
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from generation.captions.config import SamplingSettings
from generation.captions.errors import CaptionModelMissing
from generation.captions.text import caption_text, normalize_caption
from lab.captions.data import load_memes

KEY_DIR = Path("lab/runs/judgement-keys")  # kept away from the sheet until the ratings are in


class Command(BaseCommand):
    help = "Build a blind caption set, unblind its ratings, or measure a discriminator."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("action", choices=["build", "report", "discriminate"])
        parser.add_argument("--data", default="lab/runs/data", help="prepare_captions output (train/, val/)")
        parser.add_argument("--out", default="", help="the judgement's folder (build, report)")
        parser.add_argument("--seed", type=int, default=None, help="fresh each judgement (build)")
        parser.add_argument("--templates", type=int, default=12)
        parser.add_argument(
            "--per-source", type=int, default=None, help="default 6 a template, 60 with --keywords"
        )
        parser.add_argument(
            "--keywords",
            action="store_true",
            help="build the keyword set: captions asked for 1-3 keywords, rated on using them (build)",
        )
        parser.add_argument(
            "--new-templates",
            default="",
            help="JSON of templates the model never saw, with a curator's examples and people's "
            "captions: the product writes for them as for a template a curator adds (build)",
        )
        parser.add_argument("-n", type=int, default=2000, help="captions per source (discriminate)")
        parser.add_argument("--model", default=None, help="model directory (default: CAPTION_MODEL_DIR)")
        parser.add_argument("--temperature", type=float, default=SamplingSettings.temperature)
        parser.add_argument("--candidates", type=int, default=settings.CAPTION_CANDIDATES)
        parser.add_argument("--keyword-candidates", type=int, default=settings.CAPTION_KEYWORD_CANDIDATES)
        parser.add_argument(
            "--versus",
            default="",
            help="other sampling settings judged in the same sheet (build), e.g. "
            "'temperature=0.8 candidates=8': their captions are the source 'versus'",
        )
        parser.add_argument(
            "--versus-model",
            default=None,
            help="another model directory judged in the same sheet (build), at the --versus settings",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["action"] != "discriminate" and not opts["out"]:
            raise CommandError("--out is required: the judgement's folder, e.g. lab/judgements/NAME")
        {"build": self.build, "report": self.report, "discriminate": self.discriminate}[opts["action"]](opts)

    # The model and the judgement (which samples from it) load torch: only when
    # an action runs, not for --help.
    def model(self, opts: dict[str, Any], key: str = "model") -> Any:
        """The model of ``--model`` (or ``--versus-model``: ``key``); a missing one is a CommandError."""
        from generation.captions.model import load_caption_model

        try:
            return load_caption_model(Path(opts[key] or settings.CAPTION_MODEL_DIR))
        except CaptionModelMissing as error:
            raise CommandError(str(error)) from None

    def build(self, opts: dict[str, Any]) -> None:
        from lab.captions.judgement import (
            KEYWORD_QUESTIONS,
            QUESTIONS,
            FormatReference,
            Versus,
            blind_sheet,
            build_blind_set,
            build_keyword_set,
            build_new_template_set,
            format_references,
            rules_page,
        )

        out, seed = Path(opts["out"]), opts["seed"] if opts["seed"] is not None else random.randrange(10**6)
        new = self.new_templates(opts["new_templates"]) if opts["new_templates"] else None
        if new is not None and opts["keywords"]:
            raise CommandError("--new-templates and --keywords are two kinds of set: choose one")
        model = self.model(opts)
        other = self.model(opts, "versus_model") if opts["versus_model"] else None
        held_out, training = read_split(opts["data"], "val"), read_split(opts["data"], "train")
        sampling = product_settings(opts)
        versus = versus_settings(opts["versus"], sampling)
        against = Versus(other or model, versus or sampling) if other or versus else None
        questions: tuple[str, ...] = KEYWORD_QUESTIONS
        references = None
        if opts["keywords"]:
            items, key = build_keyword_set(model, held_out, seed, opts["per_source"] or 60, sampling, against)
        elif new is not None:
            questions = QUESTIONS
            items, key = build_new_template_set(model, new, seed, opts["per_source"] or 6, sampling, against)
            references = [FormatReference(t.name, t.examples) for t in new]
        else:
            questions = QUESTIONS
            per_template = opts["per_source"] or 6
            items, key = build_blind_set(
                model, held_out, seed, opts["templates"], per_template, sampling, against
            )
        templates = sorted({item.template for item in items})
        out.mkdir(parents=True, exist_ok=True)
        (out / "sheet.csv").write_text(blind_sheet(items, questions), encoding="utf-8")
        references = references or format_references(training, templates, seed)
        given = "The example captions a curator gave each template"
        intro = given if opts["new_templates"] else "A few real captions per template"
        (out / "formats.md").write_text(formats_page(references, intro), encoding="utf-8")
        (out / "rules.md").write_text(rules_page(questions), encoding="utf-8")
        key_path = KEY_DIR / f"{out.name}.json"
        key_path.parent.mkdir(parents=True, exist_ok=True)
        saved = {
            "seed": seed,
            "model": model.version,
            "sampling": sampling.to_dict(),
            "versus": versus.to_dict() if versus else None,
            "versus_model": other.version if other else None,
            "questions": list(questions),
            "key": key,
        }
        key_path.write_text(json.dumps(saved, indent=1))
        self.stdout.write(f"{len(items)} captions in {out / 'sheet.csv'}; key apart in {key_path}")

    def new_templates(self, path: str) -> list[Any]:
        from lab.captions.judgement import read_new_templates

        try:
            return read_new_templates(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"--new-templates {path}: {error}") from None

    def report(self, opts: dict[str, Any]) -> None:
        from lab.captions.judgement import QUESTIONS, read_ratings, unblind

        out = Path(opts["out"])
        key_path = KEY_DIR / f"{out.name}.json"
        ratings_path = out / "ratings.csv"
        if not ratings_path.is_file() or not key_path.is_file():
            raise CommandError(f"need {ratings_path} (the rater's sheet) and {key_path} (the key)")
        saved = json.loads(key_path.read_text())
        questions = saved.get("questions", QUESTIONS)  # keys written before keyword sets have none
        try:
            ratings = read_ratings(ratings_path.read_text(encoding="utf-8"), questions)
            report = unblind(ratings, saved["key"], questions)
        except ValueError as error:
            raise CommandError(str(error)) from None
        (out / "key.json").write_text(json.dumps(saved, indent=1))
        (out / "report.json").write_text(json.dumps({"model": saved["model"], **report}, indent=1))
        for source, answers in report.items():
            for question, figures in answers.items():
                low, high = figures["wilson95"]
                self.stdout.write(
                    f"{source:>8} {question:>22}: {figures['yes']:>3}/{figures['of']}"
                    f" = {figures['rate']:.0%}  [{low:.0%}, {high:.0%}]"
                )

    def discriminate(self, opts: dict[str, Any]) -> None:
        from lab.captions.judgement import discriminator_accuracy, product_captions

        model, rng, sampling = self.model(opts), random.Random(opts["seed"] or 0), product_settings(opts)
        held_out = read_split(opts["data"], "val")
        pool = [(slug, c) for slug, caps in held_out.items() if model.knows(slug) for c in caps]
        human = rng.sample(pool, min(opts["n"], len(pool)))
        product: list[str] = []
        for slug in sorted({slug for slug, _ in human}):
            counts = [len(c) for s, c in human if s == slug]
            product += [caption_text(c) for c in product_captions(model, slug, counts, sampling, 1)]
        accuracy = discriminator_accuracy(product, [caption_text(c) for _, c in human])
        self.stdout.write(json.dumps({"discriminator_accuracy": round(accuracy, 3), "n": len(product)}))


def product_settings(opts: dict[str, Any]) -> SamplingSettings:
    """The product's sampling settings, with the temperature and candidates asked for."""
    try:
        return SamplingSettings(
            temperature=opts["temperature"],
            candidates=opts["candidates"],
            keyword_candidates=opts["keyword_candidates"],
        )
    except ValueError as error:
        raise CommandError(str(error)) from None


def versus_settings(text: str, base: SamplingSettings) -> SamplingSettings | None:
    """``base`` with the ``name=value`` pairs of ``text`` (space- or comma-separated), or None."""
    if not text.strip():
        return None
    try:
        return base.changed(text)
    except ValueError as error:
        raise CommandError(f"--versus: {error}") from None


def read_split(data: str, split: str) -> dict[str, list[list[str]]]:
    memes = load_memes(Path(data) / split)
    return {slug: [c for raw in caps if (c := normalize_caption(raw))] for slug, caps in memes.items()}


def formats_page(references: list[Any], intro: str) -> str:
    lines = ["# Template formats", "", f"{intro}, to show each one's joke format.", ""]
    for ref in references:
        lines.append(f"## {ref.template}")
        lines += [f"- {' / '.join(boxes)}" for boxes in ref.examples]
        lines.append("")
    return "\n".join(lines)
