"""python manage.py tidy_feed: the feed's periodic upkeep (hourly is plenty).

Deletes readers' feed sessions older than a day (their cursors have expired),
each reader's seen memes beyond their last 10,000 (oldest first),
rate limits untouched for a day (full again, the same as none), template images kept for a
form that never claimed them within a day, expired sign-in sessions, failed sign-ins past
the cool-off and logs of sign-ins older than LOGIN_LOG_DAYS, and
refreshes each template's like rate, the prior new memes start from."""

from typing import Any

from django.core.management.base import BaseCommand

from feed.models import SeenMeme, Template
from feed.pending_uploads import forget_pending_images
from feed.ranking.sessions import forget_sessions
from memesite.models import RateLimitBucket
from memesite.sign_in_records import forget_expired_sessions, forget_old_sign_in_records


class Command(BaseCommand):
    help = (
        "Forget day-old feed sessions, seen memes beyond each reader's last 10,000, idle rate limits"
        ", kept images, expired sign-in sessions and old sign-in records; refresh the templates'"
        " like rates."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        forgotten = forget_sessions()
        seen = SeenMeme.objects.forget_oldest()
        limits = RateLimitBucket.objects.forget_idle()
        refreshed = Template.objects.refresh_like_rates()
        self.stdout.write(
            f"forgot {forgotten} feed positions, {seen} seen memes and {limits} idle rate limits;"
            f" refreshed {refreshed} template like rates"
        )
        self.stdout.write(f"deleted {forget_pending_images()} template images no form claimed")
        forget_expired_sessions()
        self.stdout.write(f"deleted expired sessions and {forget_old_sign_in_records()} old sign-in records")
