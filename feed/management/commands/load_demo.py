"""python manage.py load_demo: the demo pack's templates, demo users and an admin.

Idempotent: a second run updates what changed and creates nothing twice."""

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from feed.importer import import_templates

DEMO_PASSWORD = "memesite-demo"
DEMO_USERS = ("alice", "bob", "charlie")
ADMIN_USER = "admin"
ADMIN_PASSWORD = "memesite-admin"


class Command(BaseCommand):
    help = "Load the demo pack (templates), demo users and an admin account."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--pack", type=Path, default=settings.BASE_DIR / "demo" / "templates")
        parser.add_argument("--no-users", action="store_true", help="templates only")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["no_users"]:
            raise CommandError("demo users have well-known passwords: with DEBUG off, use --no-users")
        report = import_templates(options["pack"])
        for slug, reason in report.skipped:
            self.stderr.write(f"skipped {slug}: {reason}")
        self.stdout.write(f"demo templates: {len(report.created)} created, {len(report.updated)} updated")
        if not options["no_users"]:
            create_demo_users()


def create_demo_users() -> None:
    users = get_user_model()
    for name in DEMO_USERS:
        if not users.objects.filter(username=name).exists():
            users.objects.create_user(name, f"{name}@example.com", DEMO_PASSWORD)
    if not users.objects.filter(username=ADMIN_USER).exists():
        users.objects.create_superuser(ADMIN_USER, "admin@example.com", ADMIN_PASSWORD)
