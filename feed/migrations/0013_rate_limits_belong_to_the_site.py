"""The limiter's buckets belong to the site now (memesite/migrations/0001): the
feed forgets the model; its table stays, read through memesite's model."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("feed", "0012_username_skeletons"),
        ("memesite", "0001_the_limiters_buckets"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="RateLimitBucket")]),
    ]
