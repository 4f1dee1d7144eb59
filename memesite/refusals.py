"""The refusals an API operation may give, described once for the schema; each
app's views list the ones they really give (``refusals(400, 403)``). The
answers themselves come from DRF and memesite/middleware.py."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


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
    429: OpenApiResponse(ErrorSerializer, description="Too many requests: wait before trying again."),
}


def refusals(*codes: int) -> dict[int, OpenApiResponse]:
    """The refusals an operation really gives, documented in its schema."""
    return {code: REFUSALS[code] for code in codes}
