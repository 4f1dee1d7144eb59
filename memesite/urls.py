from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

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

if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
