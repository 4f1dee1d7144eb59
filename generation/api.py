""" "Make a meme": a signed-in reader picks a template (or random) and up to
three keywords and gets several variants as they finish."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from generation.captions.errors import KeywordError
from generation.captions.keywords import MAX_KEYWORDS, clean_keywords
from generation.models import GeneratedMeme, GenerationJob, Template
from generation.outlet import outlet
from generation.services import RequestRefused, request_memes
from memesite.limits import LimitReached
from memesite.refusals import refusals

# A keyword is at most 30 characters once its spaces are folded; a longer
# string is refused here, before anything folds or checks it.
MAX_KEYWORD_INPUT_CHARS = 100


class KeywordListField(serializers.ListField):
    """A list refused by its length before any item is looked at. DRF checks a
    ListField's max_length only after validating every item: a million
    keywords took 1.4-3 s to refuse."""

    def to_internal_value(self, data: Any) -> list[Any]:
        if isinstance(data, list) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


class MakeRequestSerializer(serializers.Serializer[dict[str, Any]]):
    template = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Template.objects.active(),
        required=False,
        allow_null=True,
        help_text="slug of an active template; empty or null for a random one",
    )
    keywords = KeywordListField(
        child=serializers.CharField(
            allow_blank=True, trim_whitespace=True, max_length=MAX_KEYWORD_INPUT_CHARS
        ),
        required=False,
        default=list,
        max_length=MAX_KEYWORDS,
        error_messages={"max_length": "at most {max_length} keywords are allowed"},
        help_text="up to three words or short phrases the meme should be about",
    )

    def validate_keywords(self, value: list[str]) -> list[str]:
        try:
            return clean_keywords(value)
        except KeywordError as error:
            raise serializers.ValidationError(str(error)) from None


class MakeRequestMemeSerializer(serializers.Serializer[GeneratedMeme]):
    """One meme of a request, as the reader waiting for it sees it."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GeneratedMeme.Status.choices)
    image = serializers.SerializerMethodField(help_text="the file's URL once ready")
    url = serializers.SerializerMethodField(help_text="the meme's page once ready")
    alt = serializers.CharField(source="caption", allow_blank=True)

    def get_image(self, meme: GeneratedMeme) -> str | None:
        return meme.image.url if meme.status == GeneratedMeme.Status.READY and meme.image else None

    def get_url(self, meme: GeneratedMeme) -> str | None:
        # The page is the site's (generation/outlet.py): generation names no address of its own.
        return outlet().meme_url(meme) if meme.status == GeneratedMeme.Status.READY else None


class MakeRequestStatusSerializer(serializers.Serializer[GenerationJob]):
    """A "make a meme" request: how far it got, and its memes so far (hidden ones left out)."""

    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GenerationJob.Status.choices)
    template = serializers.CharField(source="template.slug")
    keywords = serializers.ListField(child=serializers.CharField())
    count = serializers.IntegerField()
    error = serializers.SerializerMethodField(help_text="why the request failed; empty unless it did")
    memes = MakeRequestMemeSerializer(source="memes_shown", many=True)

    def get_error(self, job: GenerationJob) -> str:
        return job.error if job.status == GenerationJob.Status.FAILED else ""


class MakeRequestView(APIView):
    permission_classes = [IsAuthenticated]
    # The site's DEFAULT_THROTTLE_CLASSES takes a use of this policy of the
    # site's limiter (memesite/limits.py); request_memes takes the others.
    throttle_scope = "generation"

    @extend_schema(
        request=MakeRequestSerializer,
        responses={202: MakeRequestStatusSerializer, **refusals(400, 403, 415, 429)},
        operation_id="make_meme",
    )
    def post(self, request: Request) -> Response:
        serializer = MakeRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            job = request_memes(
                request.user, serializer.validated_data.get("template"), serializer.validated_data["keywords"]
            )
        except RequestRefused as refused:
            raise LimitReached(refused.wait, str(refused)) from None
        return Response(MakeRequestStatusSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class MakeStatusView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: MakeRequestStatusSerializer, **refusals(403, 404)}, operation_id="make_meme_status"
    )
    def get(self, request: Request, job_id: str) -> Response:
        # Only the reader who asked sees a request: another reader's is a 404.
        job = get_object_or_404(
            GenerationJob.objects.select_related("template"),
            pk=job_id,
            reason=GenerationJob.Reason.REQUEST,
            requested_by=request.user,
        )
        return Response(MakeRequestStatusSerializer(job).data)
