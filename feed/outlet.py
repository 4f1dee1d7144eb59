"""What the feed gives generation (generation.outlet.Outlet): where memes go,
how readers received them and each meme's page. Registered when Django starts
(feed/apps.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Count, Q
from django.urls import reverse

from feed.models import Meme, Reaction, UserSettings
from feed.ranking.sorts import FEW_VOTES_READY
from generation.bandit import Votes
from generation.models import GeneratedMeme, Template


class FeedOutlet:
    meme_model = Meme

    def template_votes(self, template_ids: list[int], since: datetime) -> dict[int, Votes]:
        votes = {pk: Votes() for pk in template_ids}
        rows = (
            Reaction.objects.filter(updated_at__gte=since, meme__template_id__in=template_ids)
            .values("meme__template_id")
            .annotate(
                likes=Count("pk", filter=Q(value=Reaction.LIKE)),
                dislikes=Count("pk", filter=Q(value=Reaction.DISLIKE)),
            )
        )
        for row in rows:
            votes[row["meme__template_id"]] = Votes(row["likes"], row["dislikes"])
        return votes

    def preferred_template(self, reader: Any) -> Template | None:
        found = UserSettings.objects.filter(user=reader).select_related("preferred_template").first()
        if found and found.preferred_template and found.preferred_template.is_active:
            return found.preferred_template
        return None

    def few_votes(self) -> Q:
        return FEW_VOTES_READY

    def scores_when_ready(self, meme: GeneratedMeme, ready_at: datetime) -> dict[str, Any]:
        # New memes start from their template's like rate (see Meme.initial_scores).
        return Meme.initial_scores(ready_at, prior=meme.template.like_rate)

    def meme_url(self, meme: GeneratedMeme) -> str:
        return reverse("meme", args=[meme.pk])
