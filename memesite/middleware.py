"""The site's own refusals around every view, in the one shape of
memesite/refusals.py (JSON under /api/, a plain page elsewhere), none touching
the database.

ServiceUnavailableMiddleware: the answer when a service the site needs is out
of reach for a moment (PostgreSQL restarting or failing over, a connection it
dropped, Redis behind the rate limits restarting): 503 with Retry-After, which
tells browsers, API clients and load balancers to come back, instead of a 500
that says the site is broken. Django drops a failed database connection when
the request ends, so the next request connects afresh.

RequestTooLargeMiddleware: 413 for a body too large to be worth reading;
too_large() is also the answer to a body over DATA_UPLOAD_MAX_MEMORY_SIZE
(memesite.handlers.bad_request).

ProxyNamesTheClientMiddleware: a 500 for a request from a trusted proxy that
does not say whose request it is (no X-Forwarded-For), since the site would
otherwise count every visitor as the proxy (memesite/addresses.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views import defaults

from memesite.addresses import forwarded_for_missing
from memesite.refusals import refusal

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
MESSAGE = "The site is briefly unavailable. Please try again in a few seconds."
# OperationalError: no database connection, or one lost mid-query (also a
# deadlock or a cancelled statement, which a retry resolves as well);
# InterfaceError: a connection already closed. Other database errors are bugs.
OUT_OF_REACH = (OperationalError, InterfaceError, redis.ConnectionError, redis.TimeoutError)


class ServiceUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # In development the debug page says more (SQLite reports a missing
        # migration as an OperationalError too).
        if settings.DEBUG or not isinstance(exception, OUT_OF_REACH):
            return None
        reason = str(exception).strip().split("\n")[0]  # libpq adds lines of advice
        log.warning("unavailable for %s %s: %s", request.method, request.path, reason)
        return refusal(request, 503, MESSAGE, unavailable_page, RETRY_AFTER_SECONDS)


def unavailable_page() -> HttpResponse:
    return HttpResponse(render_to_string("503.html", {"message": MESSAGE}), status=503)


class RequestTooLargeMiddleware:
    """413 for a request whose declared body is over MAX_REQUEST_BYTES, before
    anything reads it. No endpoint takes more than one image
    (generation.images.MAX_BYTES) and its form; without this, Django would
    receive a mistaken multi-gigabyte upload in full before the form refused it.
    A body sent without a length is left to the server in front and to Django's
    own limits (DATA_UPLOAD_MAX_MEMORY_SIZE)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        size = declared_length(request)
        limit = settings.MAX_REQUEST_BYTES
        if size <= limit:
            return self.get_response(request)
        log.warning("refused %s %s: %d bytes declared, limit %d", request.method, request.path, size, limit)
        return too_large(request, size, limit)


def too_large(request: HttpRequest, size: int, limit: int) -> HttpResponse:
    """The 413 for a body of ``size`` bytes (0: not declared) over ``limit``."""
    message = f"The request is {size / 1e6:.1f} MB; the limit is {limit / 1e6:.1f} MB."
    if not size:
        message = f"The request is over the limit of {limit / 1e6:.1f} MB."
    plain = "text/plain; charset=utf-8"
    return refusal(request, 413, message, lambda: HttpResponse(message, status=413, content_type=plain))


def declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0  # Django reads a malformed length as no body, too


PROXY_MISCONFIGURED = "The site is misconfigured. Its operators have been told; please try again later."


class ProxyNamesTheClientMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not forwarded_for_missing(request):
            return self.get_response(request)
        log.error(
            "refused %s %s: it came from %r, a trusted proxy (TRUSTED_PROXIES), without X-Forwarded-For. "
            "Set the proxy to send it (nginx: proxy_set_header X-Forwarded-For $remote_addr;), "
            "or take the proxy out of TRUSTED_PROXIES if it is not one",
            request.method,
            request.path,
            request.META.get("REMOTE_ADDR") or "a Unix socket",
        )
        return refusal(request, 500, PROXY_MISCONFIGURED, lambda: defaults.server_error(request))
