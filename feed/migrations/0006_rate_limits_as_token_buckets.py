"""Rate limits become token buckets: one row per key instead of one per key and
window. What the old rows counted is dropped: every limit starts full."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("feed", "0005_meme_image_index"),
    ]

    operations = [
        migrations.DeleteModel(name="RateLimitBucket"),
        migrations.CreateModel(
            name="RateLimitBucket",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(max_length=200, unique=True)),
                ("tokens", models.FloatField()),
                ("updated", models.FloatField()),
            ],
            options={
                "indexes": [models.Index(fields=["updated"], name="rate_limit_updated")],
            },
        ),
    ]
