"""The "make a meme" page; its requests go to generation/api.py."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from generation.models import Template

PERIODS = {"s": "second", "m": "minute", "h": "hour", "d": "day"}  # by a rate's period's first letter


@login_required
def make_page(request: HttpRequest) -> HttpResponse:
    templates = Template.objects.active().only("slug", "name", "image")
    return render(request, "generation/make.html", {"templates": templates, "request_limit": request_limit()})


def request_limit() -> dict[str, Any]:
    """The requests a reader may make per period (THROTTLE_GENERATION, checked at start-up),
    for the page to explain a refusal in words."""
    uses, _, period = settings.THROTTLE_GENERATION.partition("/")
    return {"count": int(uses), "period": PERIODS[period[:1].lower()]}
