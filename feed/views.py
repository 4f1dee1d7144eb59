"""Pages: the landing page, the feed, favourites, a meme's permalink, sign-up.
The feed and favourites are shells that static/js/feed.js fills from the API;
the landing page and the permalink are rendered whole so share previews
(OpenGraph), search engines and readers without script see the memes."""

from __future__ import annotations

from pathlib import PurePosixPath

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from feed.forms import SignUpForm
from feed.models import Meme, Report, Template, UserSettings
from feed.names import TOO_ALIKE
from feed.ranking.items import item_values, meme_row, reader_id, with_reader_state
from feed.ranking.sorts import SORTS
from feed.serializers import FeedItemSerializer
from memesite import limits
from memesite.limits import Take

LANDING_MEMES = 9  # three rows of three on a desktop, one column on a phone


def home_page(request: HttpRequest) -> HttpResponse:
    """``/``: a reader's feed, or what the site is to a visitor who is not signed in."""
    if request.user.is_authenticated:
        return feed_page(request)
    return landing_page(request)


def landing_page(request: HttpRequest) -> HttpResponse:
    """What memesite is, a few of its best memes and the way in: one query."""
    best = item_values(with_reader_state(Meme.objects.showcase(), reader_id(request.user)))[:LANDING_MEMES]
    memes = [FeedItemSerializer(row, context={"request": request}).data for row in best]
    return render(request, "feed/landing.html", {"memes": memes})


@login_required
def feed_page(request: HttpRequest) -> HttpResponse:
    """The feed's shell. Which template and sort it opens with is decided here,
    from the URL (``?template=…&sort=…``, which the toolbar keeps up to date)
    and the reader's preferred template, so a reload or a shared link shows the
    same feed; static/js/feed.js reads the choice from the toolbar."""
    preferences = UserSettings.for_user(request.user)
    templates = list(Template.objects.active().only("slug", "name"))
    asked_sort = request.GET.get("sort", "")
    context = {
        "sorts": SORTS,
        "templates": templates,
        "chosen_template": preferences.feed_template(
            request.GET.get("template"), {template.slug for template in templates}
        ),
        "chosen_sort": asked_sort if asked_sort in SORTS else "hot",
        "preferred": preferred_slug(preferences),
        "show_howto": preferences.show_howto_once(),
        "report_reasons": Report.Reason.choices,
    }
    return render(request, "feed/feed.html", context)


def preferred_slug(preferences: UserSettings) -> str:
    preferred = preferences.preferred_template
    return preferred.slug if preferred is not None and preferred.is_active else ""


@login_required
def favourites_page(request: HttpRequest) -> HttpResponse:
    return render(request, "feed/favourites.html", {"report_reasons": Report.Reason.choices})


def meme_page(request: HttpRequest, meme_id: int) -> HttpResponse:
    row = meme_row(request.user, meme_id)
    if row is None:
        raise Http404("There is no such meme.")
    item = FeedItemSerializer(row, context={"request": request}).data
    context = {
        "item": item,
        "created_at": row["created_at"],
        "download_name": download_name(item["template"]["slug"], item["id"], row["image"]),
        "report_reasons": Report.Reason.choices,
    }
    return render(request, "feed/meme.html", context)


def download_name(template_slug: str, meme_id: int, image_name: str) -> str:
    """``success-kid-1234.jpg``: the name a downloaded meme is saved under
    (static/js/feed.js names a card's download the same way)."""
    extension = PurePosixPath(image_name).suffix.lower() or ".jpg"
    return f"{template_slug}-{meme_id}{extension}"


# Why one more account cannot be made now, by the policy that refused it.
TOO_MANY_FROM_ADDRESS = (
    "Too many accounts have been made from your network in the last hour. Please try again later."
)
TOO_MANY_ON_SITE = (
    "Sign-ups are paused: too many accounts were made in the last hour. Please try again later."
)
SIGN_UP_REFUSED = {"sign_up": TOO_MANY_FROM_ADDRESS, "sign_up_site": TOO_MANY_ON_SITE}


@require_http_methods(["GET", "POST"])
def signup_page(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("feed")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # Per address, then site-wide: a network over its own limit spends none of the site's.
        refusal = limits.refused(Take("sign_up", limits.address(request)), Take("sign_up_site"))
        if refusal is not None:
            form.add_error(None, SIGN_UP_REFUSED[refusal.policy])
            page = render(request, "registration/signup.html", {"form": form}, status=429)
            page["Retry-After"] = str(refusal.wait)
            return page
        try:
            user = form.save()
        except IntegrityError:  # a lookalike name (or the same) signed up since the form's check
            form.add_error("username", TOO_ALIKE)
            return render(request, "registration/signup.html", {"form": form})
        # Signing up proves the password; no need to ask for it again.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("feed")
    return render(request, "registration/signup.html", {"form": form})
