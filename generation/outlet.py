"""Where generation's memes go out to readers, and what comes back: everything
generation needs from the site that shows its memes, in one protocol.

Generation never imports that site (the feed app): the site implements
``Outlet`` and hands it over with ``use_outlet`` when Django starts
(feed/apps.py), in every process, web or worker. The list below is the whole
of the dependency; ARCHITECTURE.md shows where it sits.
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any, Protocol

from django.core.exceptions import ImproperlyConfigured
from django.db.models import Manager, Q

from generation.bandit import Votes
from generation.models import GeneratedMeme, Template


class Outlet(Protocol):
    @property
    def meme_model(self) -> type[GeneratedMeme]:
        """The site's concrete meme model (a subclass of GeneratedMeme): where
        the pipeline stores the memes it makes."""
        ...

    def template_votes(self, template_ids: list[int], since: datetime) -> dict[int, Votes]:
        """Likes and dislikes readers gave each template's memes since ``since``."""
        ...

    def preferred_template(self, reader: Any) -> Template | None:
        """The active template the reader chose to see, if any."""
        ...

    def few_votes(self) -> Q:
        """Ready memes that too few readers have voted on yet, as a filter on meme_model."""
        ...

    def scores_when_ready(self, meme: GeneratedMeme, ready_at: datetime) -> dict[str, Any]:
        """Columns of the site's own that a meme gets as it becomes ready, set in the same UPDATE."""
        ...

    def meme_url(self, meme: GeneratedMeme) -> str:
        """The address of the meme's own page on the site (what "make a meme" links to)."""
        ...


_lock = threading.Lock()
_outlet: Outlet | None = None


def use_outlet(outlet: Outlet) -> None:
    """Hand generation the site its memes go to (once per process, at start-up)."""
    global _outlet
    with _lock:
        _outlet = outlet


def memes() -> Manager[GeneratedMeme]:
    """The site's memes: its meme model's default manager, the way Django has
    code reach the rows of a model it does not know."""
    return outlet().meme_model._default_manager


def outlet() -> Outlet:
    if _outlet is None:
        raise ImproperlyConfigured(
            "generation has no outlet for its memes: an installed app must call "
            "generation.outlet.use_outlet() from its AppConfig.ready() (the feed app does)"
        )
    return _outlet
