"""The loop, shown to staff who may see templates and the generation queue
(feed.permissions.SEE_INSIGHTS): per template the like rate, the bandit's share
of new generation, the ready stock and recent throughput (page and API)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import permission_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from feed.models import GenerationJob, Meme, Template
from feed.permissions import SEE_INSIGHTS, staff_with
from feed.serializers import refusals
from feed.supply import STOCK_WINDOW, template_votes
from generation import bandit

THROUGHPUT_WINDOW = timedelta(hours=1)


@dataclass(frozen=True)
class TemplateInsight:
    slug: str
    name: str
    likes: int
    dislikes: int
    like_rate: float | None  # None until someone votes
    bandit_share: float  # expected share of new generation, 0..1
    ready_stock: int  # ready memes younger than the stock window
    made_last_hour: int
    failed_last_hour: int


def template_insights() -> list[TemplateInsight]:
    now = timezone.now()
    votes = template_votes()
    shares = bandit.shares(votes)
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
    insights = [_insight(row, votes.get(row.pk, bandit.Votes()), shares.get(row.pk, 0.0)) for row in rows]
    return sorted(insights, key=lambda item: -item.bandit_share)


def _insight(row: Any, votes: bandit.Votes, share: float) -> TemplateInsight:
    total = votes.likes + votes.dislikes
    return TemplateInsight(
        slug=row.slug,
        name=row.name,
        likes=int(votes.likes),
        dislikes=int(votes.dislikes),
        like_rate=round(votes.likes / total, 3) if total else None,
        bandit_share=round(share, 3),
        ready_stock=row.stock,
        made_last_hour=row.made,
        failed_last_hour=row.failed,
    )


def queue_summary() -> dict[str, int]:
    counts = dict(GenerationJob.objects.values_list("status").annotate(n=Count("pk")).order_by())
    return {status: counts.get(status, 0) for status in GenerationJob.Status.values}


class TemplateInsightSerializer(serializers.Serializer[TemplateInsight]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    likes = serializers.IntegerField()
    dislikes = serializers.IntegerField()
    like_rate = serializers.FloatField(allow_null=True, help_text="0..1; null until someone votes")
    bandit_share = serializers.FloatField(help_text="expected share of new generation, 0..1")
    ready_stock = serializers.IntegerField()
    made_last_hour = serializers.IntegerField()
    failed_last_hour = serializers.IntegerField()


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
    }
    return render(request, "insights/insights.html", context)
