"""Sign-in lock-outs (django-axes' AXES_HANDLER), counted on the client's
address from memesite.addresses:

- a username at one address is locked after LOGIN_FAILURE_LIMIT failures there
  (axes' own count on the pair): guessing alice's password from elsewhere never
  locks alice out at her own address;
- an address is locked after LOGIN_ADDRESS_FAILURE_LIMIT failures across all
  usernames: password spraying (one guess for many accounts) stops too.

Both counts cover the cool-off (LOGIN_COOLOFF_MINUTES). A successful sign-in
clears only its own pair's failures, so an attacker signing into an account of
his own does not wipe his address's count.
"""

from __future__ import annotations

from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest


class PairAndAddressLimits(AxesDatabaseHandler):  # type: ignore[misc]
    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        """The pair's failures, which axes holds against LOGIN_FAILURE_LIMIT both
        before a sign-in and after a failure; an address over its own limit
        counts as at that limit for every username."""
        failures = int(super().get_failures(request, credentials))
        if address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            return max(failures, int(get_failure_limit(request, credentials)))
        return failures


def address_failures(request: HttpRequest) -> int:
    """Failed sign-ins from the request's address within the cool-off, for any username."""
    recent = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address,  # type: ignore[attr-defined]
        attempt_time__gte=get_cool_off_threshold(request),
    )
    return int(recent.aggregate(failures=Sum("failures_since_start"))["failures"] or 0)
