"""The "make a meme" page; its requests go to generation/api.py."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from generation.models import Template
from memesite import limits


@login_required
def make_page(request: HttpRequest) -> HttpResponse:
    templates = Template.objects.active().only("slug", "name", "image")
    return render(request, "generation/make.html", {"templates": templates, "request_limit": request_limit()})


def request_limit() -> dict[str, Any]:
    """The requests a reader may make per period (the ``generation`` policy,
    THROTTLE_GENERATION), for the page to explain a refusal in words."""
    rate = limits.rate("generation")
    return {"count": rate.uses, "period": rate.period}
