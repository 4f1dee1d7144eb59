"""The feed's periodic upkeep, scheduled by Celery beat (CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from feed.models import RateLimitBucket, SeenMeme, Template
from feed.pending_uploads import forget_pending_images
from feed.ranking import forget_sessions


@shared_task
def tidy_feed() -> None:
    """Forget day-old feed sessions, each reader's seen memes beyond their last SEEN_MEMORY,
    idle rate limits and unclaimed template images; refresh the like rates new memes start from."""
    forget_sessions()
    SeenMeme.objects.forget_oldest()
    RateLimitBucket.objects.forget_idle()
    forget_pending_images()
    Template.objects.refresh_like_rates()
