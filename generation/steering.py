"""How readers' reactions steer generation: the votes per active template, the
bandit's chance of picking each template (generation.bandit), and the stock
each template is kept at. The stock top-up, the feed's running low and "make a
meme" all ask here, and the insights page shows the same figures."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from generation import bandit
from generation.models import Template
from generation.outlet import outlet

# Reactions older than this no longer steer generation: tastes change.
BANDIT_WINDOW = timedelta(days=14)


def template_votes(since: datetime | None = None) -> dict[int, bandit.Votes]:
    """Likes and dislikes per active template, from reactions since ``since``."""
    since = since or timezone.now() - BANDIT_WINDOW
    active = list(Template.objects.active().values_list("pk", flat=True))
    return outlet().template_votes(active, since)


def stock_targets(votes: dict[int, bandit.Votes]) -> dict[int, int]:
    """Fresh ready memes the top-up keeps per active template: GENERATION_STOCK_PER_TEMPLATE
    on average, a third of it for every template and the rest by the bandit's chances."""
    return bandit.stock_targets(
        bandit.shares(votes), settings.GENERATION_STOCK_PER_TEMPLATE, settings.GENERATION_TEMPLATE_CEILING
    )


def stock_floor() -> int:
    """Fresh ready memes the top-up keeps for every active template, whatever its votes."""
    return bandit.stock_floor(settings.GENERATION_STOCK_PER_TEMPLATE)
