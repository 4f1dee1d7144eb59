"""python manage.py make_image_variants: store the lighter WebP copies of memes
made before the renderer made them (or while RENDER_VARIANTS was off), and list
them on each meme's row so pages offer them.

Safe to re-run and to run beside the site and its workers: it only adds files,
written whole under names derived from each meme's image, and a second run
finds nothing left to do. A meme whose image is missing or damaged is named
with the reason and left as it was; the others go on."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from generation.variants import make_variants, memes_without_variants

CHUNK = 200  # memes read and updated per round: progress shows, memory stays flat


class Command(BaseCommand):
    help = "Make the lighter WebP copies pages offer, for memes that lack them."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--all",
            action="store_true",
            help="check every meme with an image, not only those never looked at (restores lost copies)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        wanted = memes_without_variants(every=options["all"])
        made, failed = 0, 0
        for start in range(0, len(wanted), CHUNK):
            done = make_variants(wanted[start : start + CHUNK])
            made += done.made
            failed += len(done.failed)
            for meme_id, reason in done.failed.items():
                self.stderr.write(f"meme {meme_id}: no copies made: {reason}")
        self.stdout.write(f"copies made or found for {made} memes; {failed} failed")
        if failed:
            raise CommandError(
                f"{failed} memes have no copies (reasons above); their images were left as they were"
            )
