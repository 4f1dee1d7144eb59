"""The site's routes plus media files: the browser tests run with DEBUG off,
where Django does not serve uploads, and their media folder moves per test."""

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import URLPattern, URLResolver, path
from django.views.static import serve

from memesite.urls import urlpatterns as site_urlpatterns


def media(request: HttpRequest, name: str) -> HttpResponseBase:
    return serve(request, name, document_root=str(settings.MEDIA_ROOT))


urlpatterns: list[URLPattern | URLResolver] = [path("media/<path:name>", media), *site_urlpatterns]
