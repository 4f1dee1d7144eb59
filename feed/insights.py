"""The loop, shown to staff who may see templates and the generation queue
(feed.permissions.SEE_INSIGHTS): per template the like rate, the bandit's chance
of picking it, its stock target and ready stock, its share of the memes queued
in the last day and what asked for them, and why in a sentence (page and API)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import permission_required
from django.db.models import Count, Q, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from feed.models import Meme, Template
from feed.permissions import SEE_INSIGHTS, staff_with
from generation import bandit, steering
from generation.models import GenerationJob
from generation.stock import STOCK_WINDOW
from memesite.refusals import refusals

THROUGHPUT_WINDOW = timedelta(hours=1)
# New memes are counted over the stock's window: the top-up refills a template
# as its memes pass that age, so a shorter window shows its bursts, not its share.
NEW_MEMES_WINDOW = STOCK_WINDOW
Reason = GenerationJob.Reason
PRIOR_RATE = bandit.PRIOR.likes / (bandit.PRIOR.likes + bandit.PRIOR.dislikes)  # where every template starts


@dataclass(frozen=True)
class TemplateInsight:
    slug: str
    name: str
    likes: int
    dislikes: int
    like_rate: float | None  # None until someone votes
    bandit_share: float  # chance the bandit picks this template for a meme, 0..1
    stock_target: int  # fresh ready memes the top-up keeps
    ready_stock: int  # ready memes younger than the stock window
    new_memes: int  # memes queued for it in the last NEW_MEMES_WINDOW
    new_memes_share: float  # of all memes queued in that window, 0..1
    new_memes_by_reason: dict[str, int]  # the same memes by what asked: stock, feed, request, demo
    made_last_hour: int
    failed_last_hour: int
    why: str  # its share in a sentence


@dataclass(frozen=True)
class Steering:
    """What steers generation now, per active template id."""

    votes: dict[int, bandit.Votes]
    chances: dict[int, float]
    targets: dict[int, int]
    queued: dict[int, Counter[str]]  # memes queued in NEW_MEMES_WINDOW, by reason

    @classmethod
    def now(cls, since: datetime) -> Steering:
        votes = steering.template_votes()
        return cls(votes, bandit.shares(votes), steering.stock_targets(votes), queued_by_reason(since))

    @property
    def all_queued(self) -> int:
        return sum(sum(reasons.values()) for reasons in self.queued.values())


def template_insights() -> list[TemplateInsight]:
    now = timezone.now()
    loop = Steering.now(now - NEW_MEMES_WINDOW)
    rows = Template.objects.active().annotate(
        stock=Count(
            "memes", filter=Q(memes__status=Meme.Status.READY, memes__ready_at__gte=now - STOCK_WINDOW)
        ),
        made=Count("memes", filter=Q(memes__ready_at__gte=now - THROUGHPUT_WINDOW)),
        failed=Count(
            "memes",
            filter=Q(memes__status=Meme.Status.FAILED, memes__created_at__gte=now - THROUGHPUT_WINDOW),
        ),
    )
    insights = [_insight(row, loop) for row in rows]
    return sorted(insights, key=lambda item: -item.bandit_share)


def queued_by_reason(since: datetime) -> dict[int, Counter[str]]:
    """Memes queued per template since ``since``, by what asked for them (job reason)."""
    rows = (
        GenerationJob.objects.filter(created_at__gte=since)
        .values("template_id", "reason")
        .annotate(asked=Sum("count"))
        .order_by()
    )
    queued: dict[int, Counter[str]] = {}
    for row in rows:
        queued.setdefault(row["template_id"], Counter())[row["reason"]] += row["asked"]
    return queued


def _insight(row: Any, loop: Steering) -> TemplateInsight:
    votes, chance = loop.votes.get(row.pk, bandit.Votes()), loop.chances.get(row.pk, 0.0)
    total = votes.likes + votes.dislikes
    queued = loop.queued.get(row.pk, Counter())
    return TemplateInsight(
        slug=row.slug,
        name=row.name,
        likes=int(votes.likes),
        dislikes=int(votes.dislikes),
        like_rate=round(votes.likes / total, 3) if total else None,
        bandit_share=round(chance, 3),
        stock_target=loop.targets.get(row.pk, 0),
        ready_stock=row.stock,
        new_memes=sum(queued.values()),
        new_memes_share=round(sum(queued.values()) / loop.all_queued, 3) if loop.all_queued else 0.0,
        new_memes_by_reason={reason: queued[reason] for reason in Reason.values},
        made_last_hour=row.made,
        failed_last_hour=row.failed,
        why=why(votes, chance, templates=len(loop.votes), target=loop.targets.get(row.pk, 0)),
    )


def why(votes: bandit.Votes, chance: float, templates: int, target: int) -> str:
    """Why a template gets the share it gets, in a sentence a curator can check:
    its votes against the prior, the bandit's chance against an even split, and
    the stock the top-up keeps for it."""
    even = 1 / max(1, templates)
    floor = steering.stock_floor()
    total = votes.likes + votes.dislikes
    rate = votes.likes / total if total else PRIOR_RATE
    if not total:
        said = (
            f"No votes yet: it starts at {PRIOR_RATE:.0%} like every template, and keeps a chance to be tried"
        )
    else:
        side = "above" if rate > PRIOR_RATE else "below" if rate < PRIOR_RATE else "at"
        said = f"Liked in {votes.likes:.0f} of {total:.0f} votes ({rate:.0%}), {side} the {PRIOR_RATE:.0%} "
        said += "every template starts from"
    picked = f"the bandit picks it {chance / even:.1f}× as often as an even split would "
    picked += f"({chance:.1%} of its picks, even {even:.1%})"
    if rate > PRIOR_RATE and chance < even:
        picked += ", as other templates are liked more or by more votes"
    kept = f"the top-up keeps {target} fresh memes for it ({floor} as for every template, "
    kept += f"{target - floor} by its chance)"
    return f"{said}; {picked}; {kept}."


def queue_summary() -> dict[str, int]:
    counts = dict(GenerationJob.objects.values_list("status").annotate(n=Count("pk")).order_by())
    return {status: counts.get(status, 0) for status in GenerationJob.Status.values}


class TemplateInsightSerializer(serializers.Serializer[TemplateInsight]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    likes = serializers.IntegerField()
    dislikes = serializers.IntegerField()
    like_rate = serializers.FloatField(allow_null=True, help_text="0..1; null until someone votes")
    bandit_share = serializers.FloatField(
        help_text="the chance, 0..1, that the bandit picks this template for a meme: its expected "
        "share of the bandit's picks (readers running low without a chosen template, the top-up's "
        "share above its floor)"
    )
    stock_target = serializers.IntegerField(help_text="fresh ready memes the stock top-up keeps for it")
    ready_stock = serializers.IntegerField(help_text="ready memes made in the last 24 hours")
    new_memes = serializers.IntegerField(help_text="memes queued for it in the last 24 hours")
    new_memes_share = serializers.FloatField(
        help_text="its share, 0..1, of all memes queued in the last 24 hours"
    )
    new_memes_by_reason = inline_serializer(
        "NewMemesByReason",
        {reason: serializers.IntegerField() for reason in Reason.values},
        help_text="new_memes by what asked for them",
    )
    made_last_hour = serializers.IntegerField()
    failed_last_hour = serializers.IntegerField()
    why = serializers.CharField(help_text="why its share is what it is, in a sentence")


class InsightsSerializer(serializers.Serializer[dict[str, Any]]):
    """The loop as the API answers it: per template, and the generation queue by status."""

    templates = TemplateInsightSerializer(many=True)
    jobs = inline_serializer(
        "JobCounts", {status: serializers.IntegerField() for status in GenerationJob.Status.values}
    )


class InsightsView(APIView):
    permission_classes = [staff_with(*SEE_INSIGHTS)]

    @extend_schema(operation_id="insights", responses={200: InsightsSerializer, **refusals(403)})
    def get(self, request: Request) -> Response:
        return Response(InsightsSerializer({"templates": template_insights(), "jobs": queue_summary()}).data)


@staff_member_required
@permission_required(SEE_INSIGHTS, raise_exception=True)
def insights_page(request: HttpRequest) -> HttpResponse:
    insights = template_insights()
    widest_stock = max((item.ready_stock for item in insights), default=0) or 1
    widest_made = max((item.made_last_hour for item in insights), default=0) or 1
    context = {
        "insights": insights,
        "jobs": queue_summary(),
        "widest_stock": widest_stock,
        "widest_made": widest_made,
        "made_last_hour": sum(item.made_last_hour for item in insights),
        "sources": new_memes_by_source(insights),
        "new_memes": sum(item.new_memes for item in insights),
        "stock_per_template": settings.GENERATION_STOCK_PER_TEMPLATE,
        "stock_floor": steering.stock_floor(),
        "batch_size": settings.GENERATION_BATCH_SIZE,
        "prior": bandit.PRIOR,
        "bandit_days": steering.BANDIT_WINDOW.days,
    }
    return render(request, "insights/insights.html", context)


def new_memes_by_source(insights: list[TemplateInsight]) -> list[tuple[str, int]]:
    """What asked for the memes queued in the last day, as (label, percent) for the page."""
    counts = Counter[str]()
    for item in insights:
        counts.update(item.new_memes_by_reason)
    total = sum(counts.values())
    return [(Reason(reason).label, round(100 * n / total)) for reason, n in counts.items() if n]
