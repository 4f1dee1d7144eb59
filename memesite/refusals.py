"""The site's refusals: one shape for every refusal of the API, and their
description in the schema.

Under /api/ a refusal is JSON, ``{"detail": "a sentence"}``, with Retry-After
in whole seconds where the wait is known (a limit, a service out of reach);
elsewhere it is a page. Inside a DRF view, DRF's exception handler gives that
shape (a 429 from memesite/limits.py carries its wait); everything answered
outside one goes through ``refusal`` below: the 413 and 503 of
memesite/middleware.py, the 404, 400 and 500 of memesite/handlers.py, and the
sign-in lock-out of memesite/sign_in_limits.py.

Each app's views list the refusals they really give for the schema
(``refusals(400, 403)``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


def refusal(
    request: HttpRequest,
    status: int,
    detail: str,
    page: Callable[[], HttpResponse],
    retry_after: int | None = None,
) -> HttpResponse:
    """The answer to a refused request: the API's one shape under /api/, else
    ``page()``; Retry-After on either when the wait is known."""
    response = JsonResponse({"detail": detail}, status=status) if is_api(request) else page()
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


class ErrorSerializer(serializers.Serializer[dict[str, Any]]):
    detail = serializers.CharField()


REFUSALS = {
    400: OpenApiResponse(
        OpenApiTypes.OBJECT,
        description="The request's mistakes: messages by field name, or under `non_field_errors` "
        "or `detail` for the request as a whole.",
    ),
    403: OpenApiResponse(ErrorSerializer, description="Not signed in, a bad token, or not allowed."),
    404: OpenApiResponse(ErrorSerializer, description="Nothing by that id is there for this reader."),
    415: OpenApiResponse(
        ErrorSerializer, description="A body with no media type, or one the API does not read."
    ),
    429: OpenApiResponse(
        ErrorSerializer,
        description="Too many requests: wait before trying again (Retry-After, in seconds, where known).",
    ),
}


def refusals(*codes: int) -> dict[int, OpenApiResponse]:
    """The refusals an operation really gives, documented in its schema."""
    return {code: REFUSALS[code] for code in codes}
