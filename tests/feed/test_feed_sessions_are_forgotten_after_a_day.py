"""A reader's feed session is kept a day: old sessions are deleted by a range
on the primary key, and their cursors expire before that."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from feed.models import FeedPosition, Template
from feed.ranking import pages, sessions
from tests.feed_data import bulk_memes


def test_old_sessions_are_deleted_and_new_ones_kept(alice: User, template: Template) -> None:
    bulk_memes(template, 30)
    now = timezone.now()
    old = sessions.start_session("hot", None, now=now - timedelta(hours=25))
    new = sessions.start_session("hot", None, now=now)
    pages.next_page(alice, old, 10)
    pages.next_page(alice, new, 10)
    assert sessions.forget_sessions(now=now) == 30
    assert set(FeedPosition.objects.values_list("session", flat=True)) == {new.session}


def test_session_ids_sort_by_start_time(db: None) -> None:
    now = timezone.now()
    earlier = sessions.start_session("hot", None, now=now - timedelta(seconds=1))
    later = sessions.start_session("hot", None, now=now)
    assert earlier.session < later.session
