import re

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path

from feed import media
from feed.insights import InsightsView, insights_page
from memesite.sign_in_limits import AdminSignInForm, GuardedAdminPasswordChange

# The staff's sign-in checks a password only once a use of the sign_in policy
# is taken, as the site's does (memesite/sign_in_limits.py).
admin.site.login_form = AdminSignInForm

urlpatterns: list[URLPattern | URLResolver] = [
    # Before the admin's own: its old password counts as a sign-in (memesite/sign_in_limits.py).
    path("admin/password_change/", admin.site.admin_view(GuardedAdminPasswordChange.as_view())),
    path("admin/", admin.site.urls),
    path("", include("generation.urls")),  # "make a meme": /api/make/… and /make/
    path("api/insights/", InsightsView.as_view(), name="api-insights"),
    path("insights/", insights_page, name="insights"),
    path("api/", include("feed.api_urls")),
    path("", include("feed.urls")),
]
handler400 = "memesite.handlers.bad_request"
handler404 = "memesite.handlers.not_found"
handler500 = "memesite.handlers.server_error"

# Media on local disk is served by the site in every configuration, to whoever
# may see each file (feed/media.py); object storage serves its own.
_media_base = media.local_media_base()
if _media_base is not None:
    urlpatterns.append(
        re_path(rf"^{re.escape(_media_base.lstrip('/'))}(?P<name>.+)$", media.serve, name="media")
    )
