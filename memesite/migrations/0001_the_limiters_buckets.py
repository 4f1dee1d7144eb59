"""The limiter's buckets belong to the site (memesite/models.py), not the feed:
the model moves without moving a row. The table keeps its name
(feed_ratelimitbucket), columns and index; the feed forgets the model in its
0013. The content type moves with the model, as generation's did."""

from django.db import migrations, models


def buckets_content_type_to(app_label: str):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        source = "feed" if app_label == "memesite" else "memesite"
        if not ContentType.objects.filter(app_label=app_label, model="ratelimitbucket").exists():
            ContentType.objects.filter(app_label=source, model="ratelimitbucket").update(app_label=app_label)

    return move


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("feed", "0006_rate_limits_as_token_buckets"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="RateLimitBucket",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("key", models.CharField(max_length=200, unique=True)),
                        ("tokens", models.FloatField()),
                        ("updated", models.FloatField()),
                    ],
                    options={
                        "db_table": "feed_ratelimitbucket",
                        "indexes": [models.Index(fields=["updated"], name="rate_limit_updated")],
                    },
                ),
            ],
        ),
        migrations.RunPython(buckets_content_type_to("memesite"), buckets_content_type_to("feed")),
    ]
