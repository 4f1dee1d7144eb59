"""python manage.py template_from_meme IMAGE --name NAME [--slug SLUG]

Turns a captioned meme into a blank template (inactive until a curator checks it)."""

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from feed.importer import CaptionedMemeError, template_from_captioned_meme


class Command(BaseCommand):
    help = "Make a blank template from a captioned meme: read its text, box it, paint it out."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("image", type=Path)
        parser.add_argument("--name", required=True)
        parser.add_argument("--slug", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["image"]
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror}") from None
        try:
            template = template_from_captioned_meme(data, options["name"], options["slug"], path.name)
        except CaptionedMemeError as error:
            raise CommandError(str(error)) from None
        read = " / ".join(template.example_captions[0])
        self.stdout.write(f"made {template.slug} with {template.box_count} box(es); read: {read}")
        self.stdout.write("It is inactive: check its boxes in the admin, then activate it.")
