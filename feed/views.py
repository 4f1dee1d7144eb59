"""Pages: the feed, favourites, a meme's permalink, sign-up. Each page is a
shell the API fills (static/js/feed.js); the permalink is rendered whole so
share previews (OpenGraph) and readers without script see the meme."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from feed.forms import SignUpForm
from feed.models import Meme, Template, UserSettings
from feed.ranking import SORTS


@login_required
def feed_page(request: HttpRequest) -> HttpResponse:
    preferences = UserSettings.for_user(request.user)
    context = {
        "sorts": SORTS,
        "templates": Template.objects.active().only("slug", "name"),
        "preferred": preferences.preferred_template.slug if preferences.preferred_template else "",
        "show_howto": preferences.show_howto_once(),
    }
    return render(request, "feed/feed.html", context)


@login_required
def favourites_page(request: HttpRequest) -> HttpResponse:
    return render(request, "feed/favourites.html")


def meme_page(request: HttpRequest, meme_id: int) -> HttpResponse:
    meme = get_object_or_404(Meme.objects.visible().select_related("template"), pk=meme_id)
    return render(request, "feed/meme.html", {"meme": meme})


@require_http_methods(["GET", "POST"])
def signup_page(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("feed")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Signing up proves the password; no need to ask for it again.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("feed")
    return render(request, "registration/signup.html", {"form": form})
