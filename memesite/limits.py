"""The site's one limiter for costly actions: every limit is a named policy,
and every take goes through ``take`` below.

A policy counts uses per reader, per client address or for the whole site.
Its rate is the setting THROTTLE_<POLICY> (settings.py, written as uses per
period, e.g. ``120/minute``: the bucket holds 120 uses and gives one back
every half second). A take is one atomic SQL statement on the policy's bucket
for that reader, address or the site (``RateLimitBucket``, memesite/models.py,
keyed ``POLICY:WHO``), so a limit holds across web processes and under
parallel requests on SQLite and PostgreSQL.

An action that draws on several policies takes them in the order it names
(``refused(Take(…), Take(…))``) and stops at the first that refuses; the uses
taken before it stay taken, so a refused request costs what it reached.

Refusals: an API view raises ``LimitReached`` (a 429 with Retry-After and
``{"detail": …}``, the API's one shape for refusals, memesite/refusals.py);
a DRF view's ``throttle_scope`` names the policy ``ScopedLimit`` takes
before the view runs; pages answer with a sentence and a 429 of their own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings
from django.core.checks import CheckMessage
from django.core.checks import Warning as CheckWarning
from django.http import HttpRequest
from rest_framework.exceptions import ErrorDetail, Throttled
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from memesite.addresses import client_address
from memesite.models import RateLimitBucket
from memesite.rates import Rate

Per = Literal["reader", "address", "site"]


@dataclass(frozen=True)
class Policy:
    name: str
    per: Per  # whom it counts; a reader's policy counts a visitor not signed in by address
    counts: str  # what one use is (the README's table says the same)

    @property
    def setting(self) -> str:
        return f"THROTTLE_{self.name.upper()}"

    def rate(self) -> Rate:
        return Rate.parse(getattr(settings, self.setting))


POLICIES = {
    policy.name: policy
    for policy in (
        Policy("reactions", "reader", "a like, dislike, favourite, report or staff hide, or its undoing"),
        Policy("generation", "reader", 'a "make a meme" request'),
        Policy("generation_hourly", "reader", 'a "make a meme" request'),
        Policy("generation_site", "site", 'a "make a meme" request, all readers together'),
        Policy("request_memes", "site", 'a meme "make a meme" queues (4 a request), all readers together'),
        Policy(
            "site_memes", "site", 'a meme queued, whatever asks: scrolling, "make a meme", the stock top-up'
        ),
        Policy("feed_jobs", "reader", "a job a reader's scrolling starts once served every ready meme"),
        Policy("feed_sessions", "reader", "a feed read without a cursor: a new frozen feed"),
        Policy("feed_memes", "reader", "a meme the feed serves, a page's size at a time"),
        Policy(
            "sign_in", "address", "a sign-in attempt, right or wrong, or a password change's old password"
        ),
        Policy("sign_up", "address", "an account made"),
        Policy("sign_up_site", "site", "an account made, all addresses together"),
    )
}

SITE = "site"
# Whom each kind of policy may count: the start of the ``who`` it is taken for.
COUNTED = {"reader": ("reader", "address"), "address": ("address",), "site": ("site",)}


def reader(user: Any) -> str:
    return f"reader:{user.pk}"


def address(request: HttpRequest) -> str:
    return f"address:{client_address(request)}"


def requester(request: HttpRequest) -> str:
    """Whom a reader's policy counts: the signed-in reader, else the address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return reader(user)
    return address(request)


def whose(policy: str, request: HttpRequest) -> str:
    """The ``who`` a request takes ``policy`` for."""
    per = POLICIES[policy].per
    if per == "site":
        return SITE
    return address(request) if per == "address" else requester(request)


def rate(policy: str) -> Rate:
    return POLICIES[policy].rate()


def take(policy: str, who: str = SITE, amount: int = 1) -> bool:
    """Use ``amount`` of ``policy``'s uses for ``who``; False, using none, when too few are left."""
    limit = checked_rate(policy, who)
    return RateLimitBucket.take(f"{policy}:{who}", limit.uses, limit.seconds, amount)


def retry_after(policy: str, who: str = SITE, amount: int = 1) -> int:
    """Whole seconds until ``take`` could succeed again; at least 1."""
    limit = checked_rate(policy, who)
    wait = RateLimitBucket.wait_seconds(f"{policy}:{who}", limit.uses, limit.seconds, amount)
    return max(1, math.ceil(wait))


def checked_rate(policy: str, who: str) -> Rate:
    """The policy's rate, once ``who`` is one it counts (a mistake here is a bug, not a refusal)."""
    per = POLICIES[policy].per
    if who.split(":", 1)[0] not in COUNTED[per]:
        raise ValueError(f"{policy} counts per {per}, not {who!r}")
    return rate(policy)


@dataclass(frozen=True)
class Take:
    policy: str
    who: str = SITE
    amount: int = 1


@dataclass(frozen=True)
class Refusal:
    policy: str
    wait: int  # whole seconds until the refused take could succeed


def refused(*takes: Take) -> Refusal | None:
    """Take each in the order given, stopping at the first refused: its policy
    and wait, or None when every one was taken."""
    for one in takes:
        if not take(one.policy, one.who, one.amount):
            return Refusal(one.policy, retry_after(one.policy, one.who, one.amount))
    return None


class LimitReached(Throttled):
    """An API request past a policy: a 429 with Retry-After (when the wait is
    known) and DRF's sentence, ``Request was throttled. Expected available in
    N seconds.``, or the caller's."""

    def __init__(self, wait: int | None, detail: str | None = None) -> None:
        super().__init__(wait=wait)
        if detail is not None:
            self.detail = ErrorDetail(detail, code=self.default_code)


def take_or_throttle(*takes: Take) -> None:
    """``refused`` for an API view: LimitReached at the first refusal."""
    refusal = refused(*takes)
    if refusal is not None:
        raise LimitReached(refusal.wait)


class ScopedLimit(BaseThrottle):
    """DRF's throttle for a view whose ``throttle_scope`` names a policy; the
    site's default throttle (settings.REST_FRAMEWORK), which lets a view
    without a scope through.

    Replaces DRF's ScopedRateThrottle, whose check and count are two separate
    cache operations: 300 parallel requests under a limit of 120 all passed.
    Refusals keep DRF's shape (429, Retry-After, detail)."""

    refusal: Refusal | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
        policy = getattr(view, "throttle_scope", None)
        if policy is None:
            return True
        self.refusal = refused(Take(policy, whose(policy, request)))
        return self.refusal is None

    def wait(self) -> float | None:
        return None if self.refusal is None else self.refusal.wait


def limits_under_old_names(**kwargs: Any) -> list[CheckMessage]:
    """A warning for each limit set under the name it had before every limit
    became a rate (settings.env_limit): it works, and will not for ever."""
    return [
        CheckWarning(
            f"{old} is an old name: write {line} instead (the same limit, as uses per period)",
            id="memesite.W001",
        )
        for old, line in settings.LIMITS_UNDER_OLD_NAMES.items()
    ]
