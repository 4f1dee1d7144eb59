"""python manage.py import_templates DIR [--mapping imgflip-to-memegen.csv]"""

import csv
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from feed.importer import TemplateImportError, import_templates


class Command(BaseCommand):
    help = "Import meme templates in memegen's layout (DIR/<key>/config.yml + default.<ext>). Idempotent."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("directory", type=Path, help="folder holding one folder per template")
        parser.add_argument(
            "--mapping",
            type=Path,
            help="CSV with imgflip_slug and memegen_key columns: names each template for the caption model",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        model_keys = read_mapping(options["mapping"]) if options["mapping"] else {}
        try:
            report = import_templates(options["directory"], model_keys)
        except TemplateImportError as error:
            raise CommandError(str(error)) from None
        for slug, reason in report.skipped:
            self.stderr.write(f"skipped {slug}: {reason}")
        self.stdout.write(
            f"{len(report.created)} created, {len(report.updated)} updated, "
            f"{len(report.unchanged)} unchanged, {len(report.skipped)} skipped"
        )


def read_mapping(path: Path) -> dict[str, str]:
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise CommandError(f"{path}: cannot read the mapping ({error})") from None
    if rows and not {"imgflip_slug", "memegen_key"} <= set(rows[0]):
        raise CommandError(f"{path}: the mapping needs imgflip_slug and memegen_key columns")
    return {row["memegen_key"]: row["imgflip_slug"] for row in rows if row["memegen_key"]}
