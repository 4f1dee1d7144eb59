"""The reader's settings for every page: the theme on <html> (so a page never
flashes the wrong colours) and the settings menu in the header."""

from __future__ import annotations

from typing import Any

from django import template
from django.http import HttpRequest

from feed.models import Template, UserSettings

register = template.Library()


def settings_of(request: HttpRequest) -> UserSettings | None:
    """The signed-in reader's settings, read once per request."""
    if not request.user.is_authenticated:
        return None
    cached: UserSettings | None = getattr(request, "_memesite_settings", None)
    if cached is None:
        cached = UserSettings.for_user(request.user)
        request._memesite_settings = cached  # type: ignore[attr-defined]
    return cached


@register.simple_tag(takes_context=True)
def page_theme(context: dict[str, Any]) -> str:
    request = context.get("request")
    found = settings_of(request) if request is not None else None
    return found.theme if found else UserSettings.Theme.SYSTEM


@register.inclusion_tag("feed/_settings_menu.html", takes_context=True)
def settings_menu(context: dict[str, Any]) -> dict[str, Any]:
    found = settings_of(context["request"])
    return {
        "settings": found,
        "themes": UserSettings.Theme.choices,
        "templates": Template.objects.active().only("slug", "name") if found else [],
        "preferred": found.preferred_template_id if found else None,
    }
