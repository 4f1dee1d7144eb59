import re

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.views.static import serve

from feed.insights import InsightsView, insights_page
from feed.making import MakeRequestView, MakeStatusView, make_page

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("api/make/", MakeRequestView.as_view(), name="api-make"),
    path("api/make/<uuid:job_id>/", MakeStatusView.as_view(), name="api-make-status"),
    path("api/insights/", InsightsView.as_view(), name="api-insights"),
    path("make/", make_page, name="make"),
    path("insights/", insights_page, name="insights"),
    path("api/", include("feed.api_urls")),
    path("", include("feed.urls")),
]
handler404 = "feed.api.not_found"
handler500 = "feed.api.server_error"


def development_media(request: HttpRequest, path: str) -> HttpResponseBase:
    """Uploads and rendered memes while DEBUG is on, sent as a media server sends
    them: without the Content-Disposition header Django's file response adds,
    which would override the name a page's download link gives the file."""
    response = serve(request, path, document_root=str(settings.MEDIA_ROOT))
    del response["Content-Disposition"]
    return response


if settings.DEBUG and settings.MEDIA_URL.startswith("/"):
    media_prefix = re.escape(settings.MEDIA_URL.lstrip("/"))
    urlpatterns.append(re_path(rf"^{media_prefix}(?P<path>.*)$", development_media))
