from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def feed_page(request: HttpRequest) -> HttpResponse:
    return render(request, "feed/feed.html")
