"""Django's answers to requests no view answered (handler400, handler404,
handler500 in memesite/urls.py): the API's one shape under /api/, the site's
pages elsewhere (memesite/refusals.py)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.views import defaults

from memesite.middleware import declared_length, too_large
from memesite.refusals import refusal


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 404 for a path no route matches (a meme id that is no number, say)."""
    return refusal(request, 404, "Not found.", lambda: defaults.page_not_found(request, exception))


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 400 for a request Django refuses outside any view (a Host not in
    ALLOWED_HOSTS, a malformed form). A body over DATA_UPLOAD_MAX_MEMORY_SIZE
    is a 413 saying so, as one over MAX_REQUEST_BYTES is."""
    if isinstance(exception, RequestDataTooBig):
        return too_large(request, declared_length(request), settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    return refusal(request, 400, "Bad request.", lambda: defaults.bad_request(request, exception))


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 for a bug; the site's page needs no database."""
    return refusal(request, 500, "Server error.", lambda: defaults.server_error(request))
