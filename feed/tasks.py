"""The feed's periodic upkeep, scheduled by Celery beat (CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from feed.models import SeenMeme, Template
from feed.pending_uploads import forget_pending_images
from feed.ranking.sessions import forget_sessions
from memesite.models import RateLimitBucket
from memesite.sign_in_records import forget_expired_sessions, forget_old_sign_in_records


@shared_task
def tidy_feed() -> None:
    """Forget day-old feed sessions, each reader's seen memes beyond their last SEEN_MEMORY,
    idle rate limits, unclaimed template images, expired sign-in sessions and old sign-in
    records; refresh the like rates new memes start from."""
    forget_sessions()
    SeenMeme.objects.forget_oldest()
    RateLimitBucket.objects.forget_idle()
    forget_pending_images()
    forget_expired_sessions()
    forget_old_sign_in_records()
    Template.objects.refresh_like_rates()
