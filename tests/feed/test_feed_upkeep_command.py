"""tidy_feed forgets day-old sessions and refreshes template like rates."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from feed.models import FeedPosition, Template
from feed.ranking import pages, sessions
from tests.feed_data import bulk_memes


def test_tidy_feed_forgets_old_sessions_and_refreshes_like_rates(alice: User, template: Template) -> None:
    bulk_memes(template, 12, likes=3, dislikes=1)
    pages.next_page(alice, sessions.start_session("new", None, now=timezone.now() - timedelta(days=2)), 5)
    output = StringIO()
    call_command("tidy_feed", stdout=output)
    assert "forgot 12 feed positions, 0 seen memes and 0 idle rate limits; refreshed 1 template" in (
        output.getvalue()
    )
    assert not FeedPosition.objects.exists()
    template.refresh_from_db()
    assert template.like_rate == pytest.approx((36 + 10) / (48 + 20))
