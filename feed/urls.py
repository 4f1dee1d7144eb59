from django.urls import path

from feed import views

urlpatterns = [
    path("", views.feed_page, name="feed"),
]
