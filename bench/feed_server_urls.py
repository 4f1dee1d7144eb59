"""The site's routes plus two DRF views that do nothing: /api/bench/empty/, the
ceiling any endpoint on this server can reach, and /api/bench/signed-in/, which
first checks the reader's token as the feed does (what any reader's endpoint pays)."""

from typing import Any

from django.urls import URLPattern, URLResolver, path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from feed.api import FeedView
from memesite.urls import urlpatterns as site_urlpatterns


class EmptyView(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    def get(self, request: Request) -> Response:
        return Response({})


class SignedInView(EmptyView):
    authentication_classes = FeedView.authentication_classes
    permission_classes = FeedView.permission_classes


urlpatterns: list[URLPattern | URLResolver] = [
    path("api/bench/empty/", EmptyView.as_view()),
    path("api/bench/signed-in/", SignedInView.as_view()),
    *site_urlpatterns,
]
