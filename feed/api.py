"""The feed's API: thin views over feed.models and feed/ranking/. Inputs and
answers go through the serializers in feed.serializers; a feed page is one
values() query (my_reaction and favourited annotated in it) that
FeedItemSerializer turns into items."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from feed import models
from feed.authentication import issue_token, revoke_tokens
from feed.models import Meme, Template, UserSettings
from feed.permissions import HIDE_MEMES, staff_with
from feed.ranking import cursors, items, pages, sessions
from feed.serializers import (
    FavouritesPageSerializer,
    FeedItemSerializer,
    FeedPageSerializer,
    FeedQuerySerializer,
    HiddenSerializer,
    PageQuerySerializer,
    ReactionInputSerializer,
    ReportInputSerializer,
    SettingsSerializer,
    TemplateSerializer,
    TokenInputSerializer,
    TokenSerializer,
)
from generation.services import reader_is_running_low
from memesite import limits
from memesite.limits import ScopedLimit, Take
from memesite.refusals import refusals

# --- inputs and answers ---------------------------------------------------------


def validated(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    """The serializer's validated data, or a 400 naming each bad field."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def next_link(request: Request, cursor: str, **params: Any) -> str:
    query = urlencode({**params, "cursor": cursor})
    return request.build_absolute_uri(f"{request.path}?{query}")


def meme_response(request: Request, meme_id: int, code: int = status.HTTP_200_OK) -> Response:
    row = items.meme_row(request.user, meme_id)
    if row is None:
        raise NotFound("There is no such meme in the feed.")
    return Response(FeedItemSerializer(row, context={"request": request}).data, status=code)


def in_feed(change: Callable[[], Any]) -> Any:
    """Run a change to a meme; a meme outside the feed is a 404."""
    try:
        return change()
    except Meme.DoesNotExist:
        raise NotFound("There is no such meme in the feed.") from None


# --- the feed -------------------------------------------------------------------


class FeedView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[FeedQuerySerializer],
        responses={200: FeedPageSerializer, **refusals(400, 403, 429)},
        operation_id="feed",
        description="The reader's endless feed. Follow `next`: pages never repeat a meme or skip one, "
        "even while reactions move scores. A cursor fixes the sort and template it started with. "
        "Reads without a cursor start a new feed and are limited per reader (429), and so are the memes "
        "served, a page's size at a time, far above a person's pace (429 with Retry-After).",
    )
    def get(self, request: Request) -> Response:
        query = validated(FeedQuerySerializer, request.query_params)
        # Every meme served is remembered as seen (a row) and placed in a
        # frozen feed (at most one more): the page's size is taken from the
        # reader's memes an hour, so following `next` in a loop cannot write
        # rows without bound.
        limits.take_or_throttle(Take("feed_memes", limits.requester(request), query["page_size"]))
        state = self.state_for(request, query)
        page = pages.next_page(request.user, state, query["page_size"])
        if page.running_low:
            template = Template.objects.filter(pk=state.template_id).first() if state.template_id else None
            reader_is_running_low(request.user, template)
        cursor = cursors.encode_cursor(page.state, request.user.pk)
        answer = {"next": next_link(request, cursor, page_size=query["page_size"]), "results": page.rows}
        return Response(FeedPageSerializer(answer, context={"request": request}).data)

    @staticmethod
    def state_for(request: Request, query: dict[str, Any]) -> sessions.FeedState:
        if "cursor" not in query:
            # A new frozen feed writes up to sessions.CHUNK rows that live a
            # day, so starting one is limited per reader. Limiting starts
            # rather than keeping a reader's last few feeds: every open tab
            # keeps its place, and a person never starts dozens an hour.
            limits.take_or_throttle(Take("feed_sessions", limits.requester(request)))
            return sessions.start_session(query.get("sort", "hot"), query.get("template"))
        try:
            state = cursors.decode_cursor(query["cursor"], request.user.pk)
        except cursors.BadCursor as error:
            raise ValidationError({"cursor": [str(error)]}) from None
        if query.get("sort", state.sort) != state.sort or query.get("template", state.template_id) not in (
            state.template_id,
            None,
        ):
            raise ValidationError({"cursor": ["This cursor belongs to another sort or template."]})
        return state


# --- one meme -------------------------------------------------------------------


class MemeView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: FeedItemSerializer, **refusals(403, 404)}, operation_id="meme")
    def get(self, request: Request, meme_id: int) -> Response:
        return meme_response(request, meme_id)


class ReactionView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedLimit]
    throttle_scope = "reactions"

    @extend_schema(
        request=ReactionInputSerializer,
        responses={200: FeedItemSerializer, **refusals(400, 403, 404, 415, 429)},
        operation_id="react",
        description="Like (1) or dislike (-1); switching moves both counts. Returns the meme's fresh counts.",
    )
    def put(self, request: Request, meme_id: int) -> Response:
        value = validated(ReactionInputSerializer, request.data)["value"]
        in_feed(lambda: models.set_reaction(meme_id, request.user, value))
        return meme_response(request, meme_id)

    @extend_schema(responses={200: FeedItemSerializer, **refusals(403, 404, 429)}, operation_id="unreact")
    def delete(self, request: Request, meme_id: int) -> Response:
        in_feed(lambda: models.clear_reaction(meme_id, request.user))
        return meme_response(request, meme_id)


class FavouriteView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedLimit]
    throttle_scope = "reactions"

    @extend_schema(
        request=None, responses={200: FeedItemSerializer, **refusals(403, 404, 429)}, operation_id="favourite"
    )
    def put(self, request: Request, meme_id: int) -> Response:
        in_feed(lambda: models.set_favourite(meme_id, request.user, True))
        return meme_response(request, meme_id)

    @extend_schema(responses={200: FeedItemSerializer, **refusals(403, 404, 429)}, operation_id="unfavourite")
    def delete(self, request: Request, meme_id: int) -> Response:
        in_feed(lambda: models.set_favourite(meme_id, request.user, False))
        return meme_response(request, meme_id)


class ReportView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedLimit]
    throttle_scope = "reactions"

    @extend_schema(
        request=ReportInputSerializer,
        responses={
            201: ReportInputSerializer,
            200: ReportInputSerializer,
            **refusals(400, 403, 404, 415, 429),
        },
        operation_id="report",
        description="Flag a meme for the moderators; a second report by the same reader is not counted.",
    )
    def post(self, request: Request, meme_id: int) -> Response:
        data = validated(ReportInputSerializer, request.data)
        created = in_feed(lambda: models.report(meme_id, request.user, data["reason"], data["note"]))
        return Response(data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class HiddenView(APIView):
    """Curation: staff who may change memes take one out of every feed and put it back."""

    permission_classes = [staff_with(*HIDE_MEMES)]
    throttle_classes = [ScopedLimit]
    throttle_scope = "reactions"

    @extend_schema(
        request=None, responses={200: HiddenSerializer, **refusals(403, 404, 429)}, operation_id="hide_meme"
    )
    def put(self, request: Request, meme_id: int) -> Response:
        return self.change(meme_id, hide=True)

    @extend_schema(responses={200: HiddenSerializer, **refusals(403, 404, 429)}, operation_id="unhide_meme")
    def delete(self, request: Request, meme_id: int) -> Response:
        return self.change(meme_id, hide=False)

    @staticmethod
    def change(meme_id: int, hide: bool) -> Response:
        meme = Meme.objects.filter(pk=meme_id).first()
        if meme is None:
            raise NotFound("There is no such meme.")
        meme.hide() if hide else meme.unhide()
        meme.refresh_from_db(fields=["status"])
        return Response(HiddenSerializer(meme).data)


# --- the reader's own things -------------------------------------------------------


class FavouritesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[PageQuerySerializer],
        responses={200: FavouritesPageSerializer, **refusals(400, 403)},
        operation_id="favourites",
    )
    def get(self, request: Request) -> Response:
        query = validated(PageQuerySerializer, request.query_params)
        after = None
        if "cursor" in query:
            try:
                after = cursors.decode_favourites_cursor(query["cursor"], request.user.pk)
            except cursors.BadCursor as error:
                raise ValidationError({"cursor": [str(error)]}) from None
        page = pages.favourites_page(request.user, after, query["page_size"])
        following = None
        if page.after is not None:
            cursor = cursors.encode_favourites_cursor(page.after, request.user.pk)
            following = next_link(request, cursor, page_size=query["page_size"])
        answer = {"next": following, "results": page.rows}
        return Response(FavouritesPageSerializer(answer, context={"request": request}).data)


class TemplatesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TemplateSerializer(many=True), **refusals(403)}, operation_id="templates")
    def get(self, request: Request) -> Response:
        templates = Template.objects.active().only("slug", "name", "image", "boxes")
        return Response(TemplateSerializer(templates, many=True, context={"request": request}).data)


class MySettingsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: SettingsSerializer, **refusals(403)}, operation_id="my_settings")
    def get(self, request: Request) -> Response:
        return Response(SettingsSerializer(UserSettings.for_user(request.user)).data)

    @extend_schema(
        request=SettingsSerializer,
        responses={200: SettingsSerializer, **refusals(400, 403, 415)},
        operation_id="update_my_settings",
    )
    def patch(self, request: Request) -> Response:
        serializer = SettingsSerializer(UserSettings.for_user(request.user), data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(serializer.data)


class TokenView(APIView):
    """A token for API clients, and signing them out. Sign-in goes through
    django-axes like the sign-in page, so repeated failures lock the account
    at that address out."""

    def get_authenticators(self) -> list[BaseAuthentication]:
        # Sign-in takes its credentials from the body only: a browser's session
        # cookie must not make it ask for a CSRF token.
        return [] if self.method() == "POST" else super().get_authenticators()

    def get_permissions(self) -> list[Any]:
        return [IsAuthenticated()] if self.method() == "DELETE" else [AllowAny()]

    def method(self) -> str | None:
        """The request's method (the schema generator asks with a mock request, or none)."""
        return getattr(getattr(self, "request", None), "method", None)

    @extend_schema(
        request=TokenInputSerializer,
        responses={200: TokenSerializer, **refusals(400, 415, 429)},
        operation_id="token",
        description="The reader's token: good for API_TOKEN_DAYS (30 by default) from when it was issued, "
        "until the reader signs out or changes password. Asking again returns the same token until then.",
    )
    def post(self, request: Request) -> Response:
        credentials = validated(TokenInputSerializer, request.data)
        limits.take_or_throttle(Take("sign_in", limits.address(request)))  # before any password check
        # axes needs Django's own request: it marks it, and its middleware answers a lockout.
        user = authenticate(
            request._request, username=credentials["username"], password=credentials["password"]
        )
        if user is None or not user.is_active:
            raise ValidationError({"detail": ["Unable to sign in with that username and password."]})
        return Response(TokenSerializer(issue_token(user)).data)

    @extend_schema(
        request=None,
        responses={204: None, **refusals(403)},
        operation_id="revoke_token",
        description="Sign out every API client of the reader: their token stops working at once.",
    )
    def delete(self, request: Request) -> Response:
        revoke_tokens(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
