from django.urls import URLPattern, path

from generation import api, views

urlpatterns: list[URLPattern] = [
    path("api/make/", api.MakeRequestView.as_view(), name="api-make"),
    path("api/make/<uuid:job_id>/", api.MakeStatusView.as_view(), name="api-make-status"),
    path("make/", views.make_page, name="make"),
]
