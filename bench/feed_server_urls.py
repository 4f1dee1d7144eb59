"""The site's routes plus /api/bench/empty/: a DRF view that does nothing, the
ceiling any endpoint on this server can reach."""

from typing import Any

from django.urls import URLPattern, URLResolver, path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memesite.urls import urlpatterns as site_urlpatterns


class EmptyView(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    def get(self, request: Request) -> Response:
        return Response({})


urlpatterns: list[URLPattern | URLResolver] = [
    path("api/bench/empty/", EmptyView.as_view()),
    *site_urlpatterns,
]
