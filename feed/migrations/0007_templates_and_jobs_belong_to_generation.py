"""Templates and generation jobs belong to the generation app now
(generation/migrations/0001): the feed forgets them, its memes and settings
point at generation's models, and its Template stays as a proxy on the same
table so the curation admin keeps its addresses and permissions.

Nothing in the database changes but the content type of generation jobs, which
moves with the model so that permissions granted on jobs still hold."""

import django.db.models.deletion
from django.db import migrations, models


def jobs_content_type_to(app_label: str):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        source = "feed" if app_label == "generation" else "generation"
        if not ContentType.objects.filter(app_label=app_label, model="generationjob").exists():
            ContentType.objects.filter(app_label=source, model="generationjob").update(app_label=app_label)

    return move


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("feed", "0006_rate_limits_as_token_buckets"),
        ("generation", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="meme",
                    name="job",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="memes", to="generation.generationjob"),
                ),
                migrations.AlterField(
                    model_name="meme",
                    name="template",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="memes", to="generation.template"),
                ),
                migrations.AlterField(
                    model_name="usersettings",
                    name="preferred_template",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to="generation.template"),
                ),
                migrations.DeleteModel(name="GenerationJob"),
                migrations.DeleteModel(name="Template"),
                migrations.CreateModel(
                    name="Template",
                    fields=[],
                    options={"proxy": True, "indexes": [], "constraints": []},
                    bases=("generation.template",),
                ),
            ],
        ),
        migrations.RunPython(jobs_content_type_to("generation"), jobs_content_type_to("feed")),
    ]
