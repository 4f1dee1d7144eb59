"""The "make a meme" page; its requests go to generation/api.py."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from generation.models import Template


@login_required
def make_page(request: HttpRequest) -> HttpResponse:
    templates = Template.objects.active().only("slug", "name")
    return render(request, "generation/make.html", {"templates": templates})
