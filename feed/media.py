"""Template images and rendered memes on local disk, served by the site itself
in every configuration (DEBUG or not), and only to whoever may see them.

A file is served when a row names it: a visible meme's image and an active
template's to everyone, a hidden meme's and an inactive template's to staff
(the admin shows them), anything else under MEDIA_ROOT to no one (404). Hiding
a meme therefore closes its image at once, wherever its URL was shared. Memes
rendered from the same template and text share one file (generation.jobs names
files by their inputs), so such a file stays public while any of them is visible.
A meme's lighter copies (``KEY.600w.webp`` beside ``KEY.jpg``,
generation.render.variants) are served exactly when its image is.

Files are streamed from disk through the server's file wrapper (gunicorn
sends them with sendfile(2)). A meme's files are named by a hash of what they
show and never change, so browsers keep them a year without asking again; but
only browsers (``private``): a proxy or CDN that kept one would go on serving
it after moderators hid the meme, where this view answers 404 at once.
Templates' files keep their upload names, which a new image may reuse, so
everyone may keep them an hour and then revalidates (Last-Modified, a cheap
304). With S3_BUCKET the bucket serves media and this view has no route."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import DEFAULT_STORAGE_ALIAS, settings
from django.core import checks
from django.core.exceptions import SuspiciousFileOperation
from django.core.files.storage import FileSystemStorage, default_storage, storages
from django.db.models import QuerySet
from django.http import FileResponse, Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.views.decorators.http import require_safe

from feed.models import Meme, Template
from generation.render.variants import images_behind

# Seconds a browser or a shared cache may keep a template's image before asking
# again: a deactivated template's image can live on in caches for at most this long.
PUBLIC_MAX_AGE = 3600
# A visible meme's image and copies: content-hashed, so a year in the reader's
# own browser, and never in a cache that others read through (hiding must work).
MEME_CACHE_CONTROL = "private, max-age=31536000, immutable"


def local_storage() -> FileSystemStorage | None:
    """The media storage when it is the local disk; None for object storage."""
    storage = storages[DEFAULT_STORAGE_ALIAS]
    return storage if isinstance(storage, FileSystemStorage) else None


def local_media_base() -> str | None:
    """MEDIA_URL when files are on local disk behind a path of this site; None otherwise."""
    storage = local_storage()
    if storage is not None and storage.base_url.startswith("/"):
        return str(storage.base_url)
    return None


@require_safe  # GET and HEAD
def serve(request: HttpRequest, name: str) -> HttpResponseBase:
    cache_control = audience_cache_control(request, name)
    if cache_control is None:
        raise Http404("No such file.")
    try:
        path = Path(default_storage.path(name))  # Django's safe_join: never outside MEDIA_ROOT
        modified = int(path.stat().st_mtime)
    except (SuspiciousFileOperation, OSError):  # outside MEDIA_ROOT, or named by a row but gone
        raise Http404("No such file.") from None
    response = get_conditional_response(request, last_modified=modified) or FileResponse(path.open("rb"))
    response["Last-Modified"] = http_date(modified)
    response["Cache-Control"] = cache_control
    # FileResponse names the stored file (a hash) in Content-Disposition, and browsers let that
    # override the name a page's download link gives it ("drake-12.jpg").
    if "Content-Disposition" in response:
        del response["Content-Disposition"]
    return response


def audience_cache_control(request: HttpRequest, name: str) -> str | None:
    """Cache-Control for the file if this request may see it, else None. The
    reader's session is loaded only when the file is not public."""
    rows = rows_naming(name)
    if rows is None:
        return None
    every_row, public_rows = rows
    if public_rows.exists():
        return MEME_CACHE_CONTROL if name.startswith("memes/") else f"public, max-age={PUBLIC_MAX_AGE}"
    if getattr(request.user, "is_staff", False) and every_row.exists():
        return "private, no-store"  # never kept by a cache that others read through
    return None


def rows_naming(name: str) -> tuple[QuerySet[Any], QuerySet[Any]] | None:
    """(every row whose image is the file or has it as a copy, those of them everyone may see)."""
    if "\x00" in name:  # no file has a NUL in its name, and PostgreSQL refuses one in a query (a 500)
        return None
    if name.startswith("memes/"):
        memes = Meme.objects.filter(image__in=images_behind(name) or [name])
        return memes, memes.visible()
    if name.startswith("templates/"):
        templates = Template.objects.filter(image=name)
        return templates, templates.active()
    return None


@checks.register(checks.Tags.urls)
def media_is_served(**kwargs: Any) -> list[checks.CheckMessage]:
    """Media on local disk needs this view at MEDIA_URL: without it every image
    the API and the pages name is a 404 (object storage serves its own)."""
    if local_storage() is None:
        return []
    probe = f"{settings.MEDIA_URL}memes/probe.jpg"
    try:
        served = probe.startswith("/") and resolve(probe).func is serve
    except Resolver404:
        served = False
    if served:
        return []
    return [
        checks.Error(
            f"Media on local disk ({settings.MEDIA_ROOT}) is not served at MEDIA_URL "
            f"{settings.MEDIA_URL!r}: every meme and template image would answer 404.",
            hint="Set MEDIA_URL to a path of this site (the default, /media/), "
            "or keep media on S3-compatible storage (S3_BUCKET).",
            id="memesite.E001",
        )
    ]
