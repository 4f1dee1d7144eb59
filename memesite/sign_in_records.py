"""What signing in leaves in the database, kept only while it serves; the hourly
upkeep (feed.tasks.tidy_feed) forgets the rest:

- Django's sessions once they expire (what ``manage.py clearsessions`` does);
- django-axes' failed-attempt rows once past the cool-off (LOGIN_COOLOFF_MINUTES),
  when they no longer count towards a lock-out (memesite/sign_in_limits.py);
- axes' logs of sign-ins, and of failures where that log is switched on, after
  LOGIN_LOG_DAYS: they hold addresses and browsers, kept to look into a
  reader's "someone else signed in as me" and no longer.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from importlib import import_module

from axes.helpers import get_cool_off
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.db.models import Model, QuerySet
from django.utils import timezone


def forget_expired_sessions() -> None:
    """Delete expired sessions from whichever store SESSION_ENGINE names (a
    no-op for stores that expire their own, such as the cache)."""
    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()


def forget_old_sign_in_records(now: datetime | None = None) -> int:
    """Delete axes' attempts from before the cool-off and its logs older than
    LOGIN_LOG_DAYS; returns how many rows went."""
    now = now or timezone.now()
    # AXES_COOLOFF_TIME is set in settings (a number of hours), so never None here.
    cool_off: timedelta = get_cool_off()
    kept_since = now - timedelta(days=settings.LOGIN_LOG_DAYS)
    return (
        _delete(AccessAttempt.objects.filter(attempt_time__lt=now - cool_off))
        + _delete(AccessLog.objects.filter(attempt_time__lt=kept_since))
        + _delete(AccessFailureLog.objects.filter(attempt_time__lt=kept_since))
    )


def _delete(rows: QuerySet[Model]) -> int:
    """Delete ``rows``; how many of their own model went (an attempt's expiry row goes with it)."""
    _, per_model = rows.delete()
    return per_model.get(rows.model._meta.label, 0)
