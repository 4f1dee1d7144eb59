"""python manage.py stock_demo_memes: make memes for every active template
that has fewer than --per-template ready ones, in this process (no worker
needed), so a new reader's first page is full the moment the site starts."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count, Q

from generation import jobs
from generation.models import GeneratedMeme, GenerationJob, Template

JOBS_PER_PASS = 4  # jobs sampled together in one batched forward pass


class Command(BaseCommand):
    help = "Make memes in-process for active templates short of ready ones."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--per-template", type=int, default=6, help="ready memes each template should have"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        wanted = options["per_template"]
        if not 0 < wanted <= 100:
            raise CommandError("--per-template must be between 1 and 100")
        ready_by_template = dict(
            Template.objects.active()
            .annotate(ready=Count("memes", filter=Q(memes__status=GeneratedMeme.Status.READY)))
            .values_list("pk", "ready")
        )
        new_jobs = [
            GenerationJob.objects.create(
                template_id=pk, count=wanted - count, reason=GenerationJob.Reason.DEMO
            )
            for pk, count in ready_by_template.items()
            if count < wanted
        ]
        if not new_jobs:
            self.stdout.write("every template has its demo memes")
            return
        self.stdout.write(f"making {sum(job.count for job in new_jobs)} demo memes…")
        ready = 0
        for start in range(0, len(new_jobs), JOBS_PER_PASS):
            batch = [job.pk for job in new_jobs[start : start + JOBS_PER_PASS]]
            ready += jobs.render_memes(jobs.write_captions(batch))
        failed = GenerationJob.objects.filter(pk__in=[job.pk for job in new_jobs], status="failed").first()
        if failed is not None:
            raise CommandError(f"demo memes failed: {failed.error}")
        self.stdout.write(f"{ready} demo memes ready")
