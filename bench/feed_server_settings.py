"""Settings for bench/feed.py's gunicorn: the site's own, plus one empty DRF
endpoint to compare the feed against (same server, same middleware)."""

from memesite.settings import *  # noqa: F403

ROOT_URLCONF = "bench.feed_server_urls"
