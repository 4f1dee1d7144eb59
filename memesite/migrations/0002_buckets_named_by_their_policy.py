"""Every bucket's key starts with its policy's name (memesite/limits.py): the
buckets of the limits that had keys of their own are renamed, so that what they
hold carries over the upgrade and no limit starts full again."""

from django.db import migrations
from django.db.models import Value
from django.db.models.functions import Concat, Substr

# The old start of a key, and its policy's.
RENAMED = [
    ("make:reader:", "generation_hourly:reader:"),
    ("make:site", "generation_site:site"),
    ("make-memes:site", "request_memes:site"),
    ("memes:site", "site_memes:site"),
    ("feed-jobs:reader:", "feed_jobs:reader:"),
    ("sign-up:address:", "sign_up:address:"),
    ("sign-up:site", "sign_up_site:site"),
]


def rename(pairs):
    def run(apps, schema_editor):
        buckets = apps.get_model("memesite", "RateLimitBucket").objects
        for old, new in pairs:
            rest = Substr("key", len(old) + 1)
            buckets.filter(key__startswith=old).update(key=Concat(Value(new), rest))

    return run


class Migration(migrations.Migration):
    dependencies = [("memesite", "0001_the_limiters_buckets")]

    operations = [
        migrations.RunPython(rename(RENAMED), rename([(new, old) for old, new in RENAMED])),
    ]
