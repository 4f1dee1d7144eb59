"""Routes under /api/."""

from csp.decorators import csp_update
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from feed import api

urlpatterns = [
    path("feed/", api.FeedView.as_view(), name="api-feed"),
    path("memes/<int:meme_id>/", api.MemeView.as_view(), name="api-meme"),
    path("memes/<int:meme_id>/reaction/", api.ReactionView.as_view(), name="api-reaction"),
    path("memes/<int:meme_id>/favourite/", api.FavouriteView.as_view(), name="api-favourite"),
    path("memes/<int:meme_id>/report/", api.ReportView.as_view(), name="api-report"),
    path("memes/<int:meme_id>/hidden/", api.HiddenView.as_view(), name="api-hidden"),
    path("favourites/", api.FavouritesView.as_view(), name="api-favourites"),
    path("templates/", api.TemplatesView.as_view(), name="api-templates"),
    path("me/settings/", api.MySettingsView.as_view(), name="api-settings"),
    path("auth/token/", api.TokenView.as_view(), name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file: the site's CSP allows
    # no inline script. Swagger UI injects a <style> element, allowed on this page only.
    path(
        "docs/",
        csp_update({"style-src": ["'self'", "'unsafe-inline'"]})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema")
        ),
        name="api-docs",
    ),
]
