"""The site's routes plus three DRF views for bench/feed.py to compare the feed
against, on the same server: /api/bench/empty/, the ceiling any endpoint on
this server can reach; /api/bench/signed-in/, which first checks the reader's
token as the feed does (what any reader's endpoint pays); and
/api/bench/one-query/, the least a page read from PostgreSQL can cost here."""

from typing import Any

from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.urls import URLPattern, URLResolver, path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from feed.api import FeedView
from feed.models import Favourite, Meme, Reaction, Template
from memesite.urls import urlpatterns as site_urlpatterns


class EmptyView(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    def get(self, request: Request) -> Response:
        return Response({})


class SignedInView(EmptyView):
    authentication_classes = list(FeedView.authentication_classes)
    permission_classes = FeedView.permission_classes


MEME, TEMPLATE = Meme._meta.db_table, Template._meta.db_table
REACTION, FAVOURITE = Reaction._meta.db_table, Favourite._meta.db_table
READY = Meme.Status.READY.value

# Twenty ready memes from a random place, with the feed item's columns, the
# template and the reader's own reaction and favourite, as JSON that PostgreSQL
# builds and Python passes through untouched: no feed session, cursor, query
# validation or Python per item. A floor for any page read from PostgreSQL,
# prepared once per connection so that it pays no planning either.
ONE_QUERY_PAGE = f"""
    SELECT json_build_object('next', NULL, 'results', COALESCE(json_agg(page ORDER BY page.id), '[]'))::text
    FROM (SELECT m.id, m.texts, m.image, m.width, m.height, m.likes, m.dislikes, m.favourites, m.created_at,
                 json_build_object('slug', t.slug, 'name', t.name) AS template,
                 COALESCE((SELECT r.value FROM {REACTION} r WHERE r.user_id = $1 AND r.meme_id = m.id), 0)
                     AS my_reaction,
                 EXISTS (SELECT 1 FROM {FAVOURITE} f WHERE f.user_id = $1 AND f.meme_id = m.id) AS favourited
          FROM {MEME} m JOIN {TEMPLATE} t ON t.id = m.template_id
          WHERE m.status = '{READY}' AND m.id > (SELECT (random() * max(id))::bigint FROM {MEME})
          ORDER BY m.id LIMIT 20) page"""


class OneQueryPageView(SignedInView):
    def get(self, request: Request) -> HttpResponse:  # type: ignore[override]
        # The reader's id written in: EXECUTE takes no bound values when psycopg
        # binds them on the server (the site's setting), and it is a number.
        run = f"EXECUTE bench_one_query_page ({int(request.user.pk or 0)})"
        with connection.cursor() as cursor:
            try:
                cursor.execute(run)
            except DatabaseError:  # not prepared on this connection yet
                cursor.execute(f"PREPARE bench_one_query_page (integer) AS {ONE_QUERY_PAGE}")
                cursor.execute(run)
            (body,) = cursor.fetchone()
        return HttpResponse(body, content_type="application/json")


urlpatterns: list[URLPattern | URLResolver] = [
    path("api/bench/empty/", EmptyView.as_view()),
    path("api/bench/signed-in/", SignedInView.as_view()),
    path("api/bench/one-query/", OneQueryPageView.as_view()),
    *site_urlpatterns,
]
