"""Limits on what a visitor can make the site do, through one mechanism.

Every costly action takes a use from a ``RateLimitBucket`` (feed/models.py): a
token bucket per key, taken in one atomic SQL statement, so a limit holds
across web processes and under parallel requests on SQLite and PostgreSQL.

Each action, its key, and the settings of its rate:

* like, dislike, favourite, report, staff hide: ``reactions:reader:ID``, THROTTLE_REACTIONS;
* make a meme: ``generation:reader:ID``, THROTTLE_GENERATION (and generation.services' own);
* a fresh feed read, which starts a new frozen feed: ``feed_sessions:reader:ID``,
  THROTTLE_FEED_SESSIONS;
* memes served by the feed, a page's size at a time: ``feed_memes:reader:ID``,
  THROTTLE_FEED_MEMES;
* sign-up: ``sign-up:address:ADDRESS`` and ``sign-up:site``, SIGN_UP_ADDRESS_LIMIT_PER_HOUR
  and SIGN_UP_GLOBAL_LIMIT_PER_HOUR;
* a sign-in attempt, right or wrong (the page and the API's token), before any password
  is checked: ``sign_in:address:ADDRESS``, THROTTLE_SIGN_IN;
* memes queued (generation.services, through generation.outlet): ``feed-jobs:reader:ID``,
  ``memes:site`` and the make-a-meme keys, GENERATION_READER_JOBS_PER_HOUR,
  GENERATION_SITE_MEMES_PER_HOUR and the others.

A rate of ``120/minute`` holds 120 uses and gives one back every half second.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from feed.models import RateLimitBucket
from memesite.addresses import client_address

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}  # seconds, by the period's first letter


@dataclass(frozen=True)
class Rate:
    uses: int
    seconds: int  # the period in which ``uses`` come back

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``120/minute``, ``10/m``, ``5/hour``, ``1/day`` (checked by settings.env_rate)."""
        uses, _, period = text.lower().partition("/")
        return cls(int(uses), PERIODS[period[:1]])

    @classmethod
    def per_hour(cls, uses: int) -> Rate:
        return cls(uses, 3600)


def take(key: str, rate: Rate, amount: int = 1) -> bool:
    """Use ``amount`` of ``key``'s uses; False, using none, when too few are left."""
    return RateLimitBucket.take(key, rate.uses, rate.seconds, amount)


def retry_after(key: str, rate: Rate, amount: int = 1) -> int:
    """Whole seconds until ``take`` could succeed again; at least 1."""
    return max(1, math.ceil(RateLimitBucket.wait_seconds(key, rate.uses, rate.seconds, amount)))


def take_or_throttle(key: str, rate: Rate, amount: int = 1) -> None:
    """Take ``amount`` uses or refuse the API request as DRF's throttles do: a 429 with
    ``Retry-After`` and ``{"detail": "Request was throttled. Expected available in N seconds."}``."""
    if not take(key, rate, amount):
        raise Throttled(wait=retry_after(key, rate, amount))


def requester(request: HttpRequest) -> str:
    """Whom a per-visitor limit counts: the signed-in reader, else the address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"reader:{user.pk}"
    return f"address:{client_address(request)}"


def rate_of(scope: str) -> Rate:
    """The rate of a throttle scope, from settings.THROTTLE_<SCOPE>."""
    return Rate.parse(getattr(settings, f"THROTTLE_{scope.upper()}"))


class ScopedLimit(BaseThrottle):
    """DRF's throttle for a view's ``throttle_scope``, on the buckets above; the
    site's default throttle (settings.REST_FRAMEWORK), which lets a view without
    a scope through.

    Replaces DRF's ScopedRateThrottle, whose check and count are two separate
    cache operations: 300 parallel requests under a limit of 120 all passed.
    Refusals keep DRF's shape (429, Retry-After, detail)."""

    key = ""
    rate = Rate(1, 1)

    def allow_request(self, request: Request, view: Any) -> bool:
        scope = getattr(view, "throttle_scope", None)
        if scope is None:
            return True
        self.rate = rate_of(scope)
        self.key = f"{scope}:{requester(request)}"
        return take(self.key, self.rate)

    def wait(self) -> float | None:
        return retry_after(self.key, self.rate)


TOO_MANY_FROM_ADDRESS = (
    "Too many accounts have been made from your network in the last hour. Please try again later."
)
TOO_MANY_ON_SITE = (
    "Sign-ups are paused: too many accounts were made in the last hour. Please try again later."
)


def sign_up_refusal(request: HttpRequest) -> str | None:
    """Why one more account cannot be made now (per address, then site-wide), or None."""
    per_address = Rate.per_hour(settings.SIGN_UP_ADDRESS_LIMIT_PER_HOUR)
    if not take(f"sign-up:address:{client_address(request)}", per_address):
        return TOO_MANY_FROM_ADDRESS
    if not take("sign-up:site", Rate.per_hour(settings.SIGN_UP_GLOBAL_LIMIT_PER_HOUR)):
        return TOO_MANY_ON_SITE
    return None


SIGN_IN_REFUSED = "Too many sign-ins from your network: please try again later."


def sign_in_key(request: HttpRequest) -> str:
    """The bucket a sign-in attempt takes from: its address's (no one is signed in yet)."""
    return f"sign_in:{requester(request)}"


def sign_in_allowed(request: HttpRequest) -> bool:
    """Take a use of THROTTLE_SIGN_IN for the request's address; False when none is left."""
    return take(sign_in_key(request), rate_of("sign_in"))
