"""Generation takes over the tables of its templates and jobs from the feed app.

Nothing in the database changes: the tables keep their names (feed_template,
feed_generationjob), rows, constraints and indexes; only Django's record of which
app owns the models moves (feed/migrations/0007 drops them from the feed's)."""

import uuid

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

import generation.models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        # The feed app made both tables: they are as its 0006 left them.
        ("feed", "0006_rate_limits_as_token_buckets"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Template",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=120)),
                        ("slug", models.SlugField(max_length=80, unique=True)),
                        ("image", models.ImageField(upload_to="templates/")),
                        ("image_sha256", models.CharField(default="", editable=False, max_length=64)),
                        ("alternative_names", models.JSONField(blank=True, default=list, validators=[generation.models.validate_text_list])),
                        ("keywords", models.JSONField(blank=True, default=list, validators=[generation.models.validate_text_list])),
                        ("example_captions", models.JSONField(blank=True, default=list, validators=[generation.models.validate_captions])),
                        ("boxes", models.JSONField(validators=[generation.models.validate_boxes])),
                        ("model_key", models.CharField(blank=True, default="", max_length=120)),
                        ("mark_position", models.CharField(choices=[("bottom-right", "bottom right"), ("bottom-left", "bottom left"), ("top-right", "top right"), ("top-left", "top left")], default="bottom-right", max_length=20)),
                        ("is_active", models.BooleanField(default=True)),
                        ("like_rate", models.FloatField(default=0.5)),
                        ("source", models.URLField(blank=True, default="")),
                        ("credit", models.CharField(blank=True, default="", max_length=300)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        "db_table": "feed_template",
                        "ordering": ["name"],
                    },
                ),
                migrations.CreateModel(
                    name="GenerationJob",
                    fields=[
                        ("id", models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        ("keywords", models.JSONField(blank=True, default=list)),
                        ("count", models.PositiveSmallIntegerField(default=1)),
                        ("reason", models.CharField(choices=[("stock", "stock top-up"), ("feed", "a reader near the end of the feed"), ("request", "make a meme"), ("demo", "demo pack")], default="stock", max_length=10)),
                        ("status", models.CharField(choices=[("queued", "Queued"), ("running", "Running"), ("done", "Done"), ("failed", "Failed")], default="queued", max_length=10)),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("captions_written", models.BooleanField(default=False)),
                        ("queued_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("claimed_at", models.DateTimeField(blank=True, null=True)),
                        ("error", models.TextField(blank=True, default="")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("requested_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                        ("template", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="jobs", to="generation.template")),
                    ],
                    options={
                        "db_table": "feed_generationjob",
                        "indexes": [
                            models.Index(fields=["status", "claimed_at"], name="job_status_claimed"),
                            models.Index(fields=["status", "queued_at"], name="job_status_queued"),
                            models.Index(fields=["requested_by", "status"], name="job_requester_status"),
                        ],
                    },
                ),
            ],
        ),
    ]
