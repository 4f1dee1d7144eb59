"""Templates in memegen's layout (``DIR/<key>/config.yml`` + ``default.<ext>``)
into the database: idempotent, every bad entry reported by name and skipped.

Keys read from config.yml: memegen's ``name``, ``source``, ``keywords``,
``example`` (one caption, a text per box) and ``text`` (the boxes); and our
own optional ``model_key`` (the caption model's template name),
``alternative_names``, ``examples`` (several captions), ``mark_position``,
``credit``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import yaml
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.text import slugify
from pytesseract import TesseractError

from feed.models import Template
from generation.captions.keywords import extract_keywords
from generation.images import MAX_BYTES, ImageRejected, encode_image, load_image
from generation.layout import LayoutError, boxes_to_json, memegen_boxes
from generation.moderation import refusal
from generation.render import mark_position_for
from memesite.parsers import MAX_DEPTH, TooDeep, within_depth

IMAGE_NAMES = ("default.jpg", "default.jpeg", "default.png", "default.webp", "default.gif")
MAX_CONFIG_BYTES = 256 * 1024


class TemplateImportError(ValueError):
    """One template folder that cannot be imported; the message says why."""


@dataclass
class ImportReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (folder name, reason)


@dataclass(frozen=True)
class TemplateSpec:
    slug: str
    values: dict[str, Any]
    image_bytes: bytes
    image_sha256: str


def import_templates(directory: Path, model_keys: dict[str, str] | None = None) -> ImportReport:
    """Import every template folder under ``directory``; ``model_keys`` maps
    folder names to the caption model's template names where config.yml has none."""
    if not directory.is_dir():
        raise TemplateImportError(f"{directory}: not a folder of templates")
    report = ImportReport()
    for folder in _template_folders(directory):
        try:
            spec = read_template_folder(folder, (model_keys or {}).get(folder.name, ""))
            outcome = save_template(spec)
        except TemplateImportError as error:
            report.skipped.append((folder.name, str(error)))
            continue
        getattr(report, outcome).append(spec.slug)
    return report


def read_template_folder(folder: Path, model_key: str = "") -> TemplateSpec:
    config = _read_config(folder)
    image_path = _find_image(folder)
    try:
        normalised = load_image(image_path.read_bytes(), image_path.name)
        parsed = memegen_boxes(config.get("text"))
    except (ImageRejected, LayoutError) as error:
        raise TemplateImportError(str(error)) from None
    except OSError as error:  # unreadable: no permission, a broken disk
        raise TemplateImportError(f"{image_path.name} cannot be read: {error.strerror or error}") from None
    image_bytes = encode_image(normalised.image, "JPEG", quality=90)
    values = {
        "name": _text(config.get("name"), "name", required=True),
        "boxes": boxes_to_json(parsed),
        "keywords": _texts(config.get("keywords"), "keywords"),
        "alternative_names": _texts(config.get("alternative_names"), "alternative_names"),
        "example_captions": _examples(config),
        "source": _text(config.get("source"), "source"),
        "credit": _text(config.get("credit"), "credit"),
    }
    # A run without a mapping keeps the model names an earlier run set.
    model_key = _text(config.get("model_key"), "model_key") or model_key
    if model_key:
        values["model_key"] = model_key
    # The AI-generated mark goes in the corner that hides the least text.
    values["mark_position"] = _text(config.get("mark_position"), "mark_position") or mark_position_for(parsed)
    slug = slugify(folder.name)
    if not slug:
        raise TemplateImportError("the folder name makes no usable slug")
    return TemplateSpec(slug, values, image_bytes, hashlib.sha256(image_bytes).hexdigest())


def save_template(spec: TemplateSpec) -> str:
    """Create or update one template; returns created / updated / unchanged."""
    template = Template.objects.filter(slug=spec.slug).first()
    created = template is None
    if template is None:
        template = Template(slug=spec.slug)
    changed = created or any(getattr(template, name) != value for name, value in spec.values.items())
    new_image = template.image_sha256 != spec.image_sha256
    if not (changed or new_image):
        return "unchanged"
    for name, value in spec.values.items():
        setattr(template, name, value)
    try:
        template.full_clean(exclude=["image"])
    except ValidationError as error:
        raise TemplateImportError(
            "; ".join(f"{k}: {' '.join(v)}" for k, v in error.message_dict.items())
        ) from None
    saved_name = ""
    if new_image:
        saved_name = template.image.storage.save(
            f"templates/{spec.slug}-{spec.image_sha256[:12]}.jpg", ContentFile(spec.image_bytes)
        )
        template.image.name = saved_name
        template.image_sha256 = spec.image_sha256
    try:
        with transaction.atomic():
            template.save()
    except Exception:
        if saved_name:  # nothing half stored: the row failed, so the file goes too
            template.image.storage.delete(saved_name)
        raise
    return "created" if created else "updated"


def _template_folders(directory: Path) -> Iterator[Path]:
    for path in sorted(directory.iterdir()):
        if path.is_dir() and not path.name.startswith("."):
            yield path


def _read_config(folder: Path) -> dict[str, Any]:
    path = folder / "config.yml"
    if not path.is_file():
        raise TemplateImportError("no config.yml")
    if path.stat().st_size > MAX_CONFIG_BYTES:
        raise TemplateImportError(f"config.yml is over {MAX_CONFIG_BYTES // 1024} KB")
    text = _read_text(path)
    try:
        config = within_depth(partial(yaml.safe_load, text))  # the site's one limit on nesting
    except TooDeep:
        raise TemplateImportError(f"config.yml nests deeper than {MAX_DEPTH} levels") from None
    except (yaml.YAMLError, ValueError) as error:  # ValueError: an integer over Python's 4,300 digits
        raise TemplateImportError(f"config.yml is not valid YAML: {error}".splitlines()[0]) from None
    if not isinstance(config, dict):
        raise TemplateImportError("config.yml must be a mapping of settings")
    return config


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise TemplateImportError(
            f"{path.name} is not UTF-8 text ({error.reason} at byte {error.start})"
        ) from None
    except OSError as error:  # unreadable: no permission, a broken disk
        raise TemplateImportError(f"{path.name} cannot be read: {error.strerror or error}") from None


def _find_image(folder: Path) -> Path:
    for name in IMAGE_NAMES:
        path = folder / name
        if path.is_file():
            if path.stat().st_size > MAX_BYTES:
                raise TemplateImportError(f"{name} is over {MAX_BYTES // 1_000_000} MB")
            return path
    raise TemplateImportError(f"no image (expected one of {', '.join(IMAGE_NAMES)})")


def _text(value: Any, name: str, required: bool = False) -> str:
    if value is None or value == "":
        if required:
            raise TemplateImportError(f"config.yml has no {name}")
        return ""
    if not isinstance(value, (str, int, float)):
        raise TemplateImportError(f"{name} must be text")
    if "\x00" in str(value):  # YAML's "\0"; PostgreSQL refuses it at the save, which ended the import
        raise TemplateImportError(f"{name} holds a NUL character")
    return str(value).strip()


def _texts(value: Any, name: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise TemplateImportError(f"{name} must be a list")
    # memegen writes an empty list item as "-", which YAML reads as None.
    return [str(item).strip() for item in value if item is not None and str(item).strip()]


def _examples(config: dict[str, Any]) -> list[list[str]]:
    captions: list[list[str]] = []
    single = _texts(config.get("example"), "example")
    if single:
        captions.append(single)
    many = config.get("examples") or []
    if not isinstance(many, list):
        raise TemplateImportError("examples must be a list of captions")
    for caption in many:
        boxes = _texts(caption if isinstance(caption, list) else [caption], "examples")
        if boxes and boxes not in captions:
            captions.append(boxes)
    return captions


class CaptionedMemeError(ValueError):
    """A captioned meme that cannot become a template; the message says why."""


def template_from_captioned_meme(
    data: bytes, name: str, slug: str = "", filename: str = "upload"
) -> Template:
    """Make an inactive template from a meme that already has a caption (see
    ``captioned_meme_spec``) and save it straight away."""
    spec = captioned_meme_spec(data, name, slug, filename)
    try:
        save_template(spec)
    except TemplateImportError as error:  # e.g. a name that may not be shown
        raise CaptionedMemeError(str(error)) from None
    return Template.objects.get(slug=spec.slug)


def captioned_meme_spec(data: bytes, name: str, slug: str = "", filename: str = "upload") -> TemplateSpec:
    """A template made from a meme that already has a caption, not yet saved:
    its text is read (OCR), each text block becomes a box, the text is painted
    out of the image, and what was read becomes an example caption and a
    source of keywords. It starts inactive: a curator checks the boxes first."""
    # OpenCV loads here, when a curator makes a template from a captioned meme,
    # not in every web process that imports the admin.
    from generation.blank import NoTextFound, make_blank_template
    from generation.ocr import TesseractMissing

    slug = slugify(slug or name)
    if not name.strip() or not slug:
        raise CaptionedMemeError("give the template a name")
    if Template.objects.filter(slug=slug).exists():
        raise CaptionedMemeError(f"a template with the slug {slug!r} exists already")
    try:
        blank = make_blank_template(load_image(data, filename).image)
    except (ImageRejected, NoTextFound, TesseractMissing) as error:
        raise CaptionedMemeError(str(error)) from None
    except TesseractError as error:
        # Noise or heavy texture gives thousands of letter-like specks; stacked
        # for OCR they make a page taller than Tesseract takes ("Image too large").
        raise CaptionedMemeError(
            f"the text could not be read: Tesseract refused the image ({error.message.strip()}). A noisy or "
            "heavily textured picture does this: upload a cleaner one whose caption is white with a dark "
            "outline or dark on a light background"
        ) from None
    image_bytes = encode_image(blank.image, "JPEG", quality=90)
    # What was read is kept only where a meme may show it: a profane caption still makes a
    # clean blank template, without that caption as an example.
    shown = refusal(" | ".join(blank.texts)) is None
    keywords = {word for text in blank.texts for word in extract_keywords(text) if refusal(word) is None}
    return TemplateSpec(
        slug=slug,
        values={
            "name": name.strip(),
            "boxes": boxes_to_json(blank.boxes),
            "example_captions": [blank.texts] if shown else [],
            "keywords": sorted(keywords)[:20],
            "credit": "Made from a captioned meme: text read and painted out automatically.",
            "mark_position": mark_position_for(blank.boxes),
            "is_active": False,  # a curator checks the boxes before readers see it
        },
        image_bytes=image_bytes,
        image_sha256=hashlib.sha256(image_bytes).hexdigest(),
    )
