"""Template images waiting for their form: kept in media storage while a
curator fixes the rest of the form, or checks the boxes of a template made from
a captioned meme, so nobody has to choose the same image twice.

A pending image is an intake-checked, re-encoded JPEG stored under
``PENDING_DIR`` by its content hash and handed to the page as a signed token
(the browser cannot point the form at any other file). Files no form claimed
within ``PENDING_MAX_AGE`` are deleted by the hourly upkeep (``tidy_feed``).
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from django.core import signing
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone

PENDING_DIR = "pending-templates"
PENDING_MAX_AGE = timedelta(days=1)
_SALT = "feed.pending-template-image"


def keep_pending_image(data: bytes) -> str:
    """Store a checked image (JPEG bytes) until a form claims it; returns its token."""
    name = f"{PENDING_DIR}/{hashlib.sha256(data).hexdigest()}.jpg"
    if not default_storage.exists(name):
        name = default_storage.save(name, ContentFile(data))
    return signing.dumps(name, salt=_SALT)


def pending_image(token: str) -> bytes | None:
    """The image a token names, or None when the token is forged, stale or its file gone."""
    name = pending_name(token)
    if name is None:
        return None
    try:
        with default_storage.open(name, "rb") as handle:
            data: bytes = handle.read()
    except OSError:  # swept away, or never stored
        return None
    return data


def pending_name(token: str) -> str | None:
    """The storage name a token names, or None when it is forged or older than a day."""
    try:
        name = signing.loads(token, salt=_SALT, max_age=PENDING_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired included
        return None
    if not isinstance(name, str) or not name.startswith(f"{PENDING_DIR}/") or ".." in name:
        return None
    return name


def forget_pending_image(token: str) -> None:
    """Delete the file once its form saved it as a template's image."""
    name = pending_name(token)
    if name is not None:
        default_storage.delete(name)


def forget_pending_images(now: datetime | None = None) -> int:
    """Delete pending images older than ``PENDING_MAX_AGE`` (their tokens have expired)."""
    cutoff = (now or timezone.now()) - PENDING_MAX_AGE
    try:
        _, files = default_storage.listdir(PENDING_DIR)
    except FileNotFoundError:  # nothing was ever kept
        return 0
    forgotten = 0
    for file in files:
        name = f"{PENDING_DIR}/{file}"
        if default_storage.get_modified_time(name) < cutoff:
            default_storage.delete(name)
            forgotten += 1
    return forgotten
