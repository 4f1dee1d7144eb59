from datetime import timedelta

import pytest
from django.utils import timezone

from feed.models import FeedPosition
from feed.ranking import sessions
from feed.tasks import tidy_feed
from tests.conftest import make_meme, make_template


@pytest.mark.django_db
def test_the_hourly_task_forgets_day_old_sessions_and_keeps_fresh_ones() -> None:
    meme = make_meme(make_template())
    old = sessions.start_session("hot", None, now=timezone.now() - timedelta(days=2))
    fresh = sessions.start_session("hot", None)
    FeedPosition.objects.create(session=old.session, position=1, meme=meme)
    FeedPosition.objects.create(session=fresh.session, position=1, meme=meme)

    tidy_feed.delay()

    assert list(FeedPosition.objects.values_list("session", flat=True)) == [fresh.session]
