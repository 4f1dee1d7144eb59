"""Every route the site's URL configuration answers, for the tests that walk them all
(the access matrix, the limiter's policies)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver


def routes(patterns: list[URLPattern | URLResolver], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every route in the resolver as (the route's full text, its view)."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern.callback
