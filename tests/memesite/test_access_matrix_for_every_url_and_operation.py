"""Who may do what, as one table: every page and API operation, for an anonymous
visitor, a reader (alice) and staff. A route added without a row fails
``test_every_route_and_operation_has_a_row``; the admin's many routes are all
checked by the admin gate below instead of a row each.

Then the cross-reader checks: alice never reads or changes bob's favourites,
reactions, settings or make-a-meme requests, whatever URL or body she sends."""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http.response import HttpResponseBase
from django.test import Client
from django.urls import get_resolver, resolve

from feed.models import (
    Favourite,
    Meme,
    Reaction,
    Template,
    UserSettings,
    set_favourite,
    set_reaction,
)
from generation.models import GenerationJob
from tests.conftest import PASSWORD, make_meme, make_template
from tests.feed_data import pictured_meme
from tests.routes import routes


@dataclass(frozen=True)
class Outcome:
    name: str
    statuses: tuple[int, ...]
    location: str = ""  # where a redirect must lead (the path, query ignored)

    def matches(self, response: HttpResponseBase) -> bool:
        if response.status_code not in self.statuses:
            return False
        return not self.location or response["Location"].split("?")[0] == self.location


OK = Outcome("ok", (200,))
CREATED = Outcome("created", (201,))
ACCEPTED = Outcome("accepted", (202,))
REFUSED = Outcome("refused", (401, 403))
NOT_FOUND = Outcome("not found", (404,))
NOT_ALLOWED = Outcome("method not allowed", (405,))
SIGN_IN = Outcome("sent to sign in", (302,), "/accounts/login/")
STAFF_SIGN_IN = Outcome("sent to the staff sign-in", (302,), "/admin/login/")
FEED = Outcome("sent to the feed", (302,), "/")
ADMIN = Outcome("sent to the admin", (302,), "/admin/")
NO_CONTENT = Outcome("done, no content", (204,))
PASSWORD_CHANGED = Outcome("sent to password changed", (302,), "/accounts/password/changed/")

# "bare staff" is a staff account given no model permissions: the admin shows
# it nothing, and the API must refuse it the same curation.
ROLES = ("anonymous", "reader", "bare staff", "staff")


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    """Over two hundred cases, each with two accounts: the real hasher's million
    rounds would take minutes. Nothing here tests the hashing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# {meme} is a ready meme, {job} alice's make-a-meme request, {template} a
# template, {alice} alice's account, {…_image} the media names of that meme's,
# a hidden meme's and the template's images; the reader is alice.
# Each row: method, path, then what an anonymous visitor, a reader, staff
# without model permissions and staff with all of them get.
TABLE: list[tuple[str, str, Outcome, Outcome, Outcome, Outcome]] = [
    # pages
    ("GET", "/", OK, OK, OK, OK),  # the landing page for visitors, the feed for readers
    ("GET", "/favourites/", SIGN_IN, OK, OK, OK),
    ("GET", "/m/{meme}/", OK, OK, OK, OK),
    ("GET", "/make/", SIGN_IN, OK, OK, OK),
    ("GET", "/insights/", STAFF_SIGN_IN, STAFF_SIGN_IN, REFUSED, OK),
    ("GET", "/accounts/signup/", OK, FEED, FEED, FEED),
    ("POST", "/accounts/signup/", FEED, FEED, FEED, FEED),
    ("GET", "/accounts/login/", OK, FEED, FEED, FEED),
    ("POST", "/accounts/login/", FEED, FEED, FEED, FEED),
    ("PUT", "/accounts/login/", OK, FEED, FEED, FEED),  # Django's form views take PUT as POST
    ("GET", "/accounts/logout/", NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED),
    ("POST", "/accounts/logout/", SIGN_IN, SIGN_IN, SIGN_IN, SIGN_IN),
    ("GET", "/accounts/password/", SIGN_IN, OK, OK, OK),
    ("POST", "/accounts/password/", SIGN_IN, PASSWORD_CHANGED, PASSWORD_CHANGED, PASSWORD_CHANGED),
    ("PUT", "/accounts/password/", SIGN_IN, OK, OK, OK),  # taken as POST: a JSON body is no form
    ("GET", "/accounts/password/changed/", SIGN_IN, OK, OK, OK),
    # curation (the admin gate below covers every other admin URL)
    ("GET", "/admin/", STAFF_SIGN_IN, STAFF_SIGN_IN, OK, OK),
    ("GET", "/admin/login/", OK, OK, ADMIN, ADMIN),
    ("POST", "/admin/logout/", ADMIN, ADMIN, SIGN_IN, SIGN_IN),
    ("GET", "/admin/feed/template/", STAFF_SIGN_IN, STAFF_SIGN_IN, REFUSED, OK),
    ("GET", "/admin/feed/template/{template}/change/", STAFF_SIGN_IN, STAFF_SIGN_IN, REFUSED, OK),
    ("GET", "/admin/feed/template/from-meme/", STAFF_SIGN_IN, STAFF_SIGN_IN, REFUSED, OK),
    ("GET", "/admin/auth/user/{alice}/change/", STAFF_SIGN_IN, STAFF_SIGN_IN, REFUSED, OK),
    # the feed API
    ("GET", "/api/feed/", REFUSED, OK, OK, OK),
    ("GET", "/api/memes/{meme}/", OK, OK, OK, OK),
    ("PUT", "/api/memes/{meme}/reaction/", REFUSED, OK, OK, OK),
    ("DELETE", "/api/memes/{meme}/reaction/", REFUSED, OK, OK, OK),
    ("PUT", "/api/memes/{meme}/favourite/", REFUSED, OK, OK, OK),
    ("DELETE", "/api/memes/{meme}/favourite/", REFUSED, OK, OK, OK),
    ("POST", "/api/memes/{meme}/report/", REFUSED, CREATED, CREATED, CREATED),
    ("PUT", "/api/memes/{meme}/hidden/", REFUSED, REFUSED, REFUSED, OK),
    ("DELETE", "/api/memes/{meme}/hidden/", REFUSED, REFUSED, REFUSED, OK),
    ("GET", "/api/favourites/", REFUSED, OK, OK, OK),
    ("GET", "/api/templates/", OK, OK, OK, OK),
    # Templates are written through the admin only: the API has no write, not even for staff.
    ("POST", "/api/templates/", NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED),
    ("GET", "/api/me/settings/", REFUSED, OK, OK, OK),
    ("PATCH", "/api/me/settings/", REFUSED, OK, OK, OK),
    ("PUT", "/api/me/settings/", REFUSED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED),
    ("POST", "/api/make/", REFUSED, ACCEPTED, ACCEPTED, ACCEPTED),
    # A request is its reader's alone: staff too get a 404 for alice's.
    ("GET", "/api/make/{job}/", REFUSED, OK, NOT_FOUND, NOT_FOUND),
    ("GET", "/api/insights/", REFUSED, REFUSED, REFUSED, OK),
    ("POST", "/api/auth/token/", OK, OK, OK, OK),
    ("GET", "/api/auth/token/", NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED),
    ("DELETE", "/api/auth/token/", REFUSED, NO_CONTENT, NO_CONTENT, NO_CONTENT),
    ("GET", "/api/schema/", OK, OK, OK, OK),
    ("GET", "/api/docs/", OK, OK, OK, OK),
    # media: a visible meme's image and an active template's for everyone, a hidden meme's for staff only
    ("GET", "/media/{meme_image}", OK, OK, OK, OK),
    ("GET", "/media/{hidden_image}", NOT_FOUND, NOT_FOUND, OK, OK),
    ("GET", "/media/{template_image}", OK, OK, OK, OK),
]

BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("POST", "/accounts/signup/"): {"username": "dave", "password1": PASSWORD, "password2": PASSWORD},
    ("POST", "/accounts/login/"): {"username": "alice", "password": PASSWORD},
    ("POST", "/accounts/password/"): {
        "old_password": PASSWORD,
        "new_password1": "a brand new staple battery",
        "new_password2": "a brand new staple battery",
    },
    ("PUT", "/api/memes/{meme}/reaction/"): {"value": 1},
    ("POST", "/api/memes/{meme}/report/"): {"reason": "spam"},
    ("PATCH", "/api/me/settings/"): {"theme": "dark"},
    ("PUT", "/api/me/settings/"): {"theme": "dark"},
    ("POST", "/api/make/"): {"template": "success"},
    ("POST", "/api/auth/token/"): {"username": "alice", "password": PASSWORD},
}
FORM_POSTS = ("/accounts/", "/admin/")  # pages take form posts; the API takes JSON


def cases() -> list[Any]:
    return [
        pytest.param(method, path, role, outcome, id=f"{method} {path} as {role}: {outcome.name}")
        for method, path, *outcomes in TABLE
        for role, outcome in zip(ROLES, outcomes, strict=True)
    ]


@dataclass(frozen=True)
class World:
    alice: User
    clerk: User
    staff: User
    template: Template
    meme: Meme
    hidden: Meme
    job: GenerationJob

    def url(self, path: str) -> str:
        return path.format(
            meme=self.meme.pk,
            job=self.job.pk,
            template=self.template.pk,
            alice=self.alice.pk,
            meme_image=self.meme.image.name,
            hidden_image=self.hidden.image.name,
            template_image=self.template.image.name,
        )

    def client_as(self, role: str) -> Client:
        client = Client()
        users = {"reader": self.alice, "bare staff": self.clerk, "staff": self.staff}
        if role in users:
            client.force_login(users[role])
        return client


@pytest.fixture
def world(alice: User, clerk: User, staff: User) -> World:
    template = make_template("success")
    job = GenerationJob.objects.create(
        template=template, reason=GenerationJob.Reason.REQUEST, requested_by=alice, count=4
    )
    hidden = pictured_meme(template, ["hidden"], "crimson")
    hidden.hide()
    shown = pictured_meme(template, ["top", "bottom"], "teal")
    return World(alice, clerk, staff, template, shown, hidden, job)


def send(client: Client, method: str, url: str, body: dict[str, Any] | None) -> Any:
    if method == "GET":
        return client.get(url)
    if method == "POST" and url.startswith(FORM_POSTS):
        return client.post(url, body or {})
    return client.generic(method, url, json.dumps(body) if body else "", "application/json")


@pytest.mark.parametrize(("method", "path", "role", "outcome"), cases())
def test_the_access_matrix(world: World, method: str, path: str, role: str, outcome: Outcome) -> None:
    response = send(world.client_as(role), method, world.url(path), BODIES.get((method, path)))
    where = response.get("Location", "")
    assert outcome.matches(response), f"{response.status_code} {where}".strip()


# --- the admin gate -----------------------------------------------------------------


def concrete(route: str) -> str:
    """An admin route as a URL: objects (and content types) by id 1, the feed app's
    index for the per-app route, a made-up page for the catch-all."""
    if "(?P<app_label>" in route:
        return "/admin/feed/"
    if "(?P<url>" in route:
        return "/admin/no-such-page/"
    return "/" + re.sub(r"<(?:\w+:)?\w+>", "1", route)


def admin_urls() -> list[str]:
    every = (route for route, _ in routes(get_resolver().url_patterns))
    in_the_table = ("admin/login/", "admin/logout/")
    return [concrete(route) for route in every if route.startswith("admin/") and route not in in_the_table]


@pytest.mark.parametrize("url", admin_urls())
def test_every_admin_url_is_for_staff_only(world: World, url: str) -> None:
    for role in ("anonymous", "reader"):
        response = world.client_as(role).get(url)
        assert STAFF_SIGN_IN.matches(response), f"{role}: {response.status_code}"
    staff = world.client_as("staff").get(url)
    assert staff.status_code < 500 and not STAFF_SIGN_IN.matches(staff)


# --- no route without a row ----------------------------------------------------------------

HANDLERS = ("get", "post", "put", "patch", "delete")


def table_operations() -> set[tuple[str, str]]:
    """(method, route) for every row, the route as the resolver spells it."""
    placeholders = {"meme": 1, "job": uuid.uuid4(), "template": 1, "alice": 1}
    placeholders |= {
        "meme_image": "memes/1.jpg",
        "hidden_image": "memes/2.jpg",
        "template_image": "templates/1.jpg",
    }
    return {(method, resolve(path.format(**placeholders)).route) for method, path, *_ in TABLE}


def test_every_route_and_operation_has_a_row() -> None:
    rows = table_operations()
    missing = []
    for route, view in routes(get_resolver().url_patterns):
        if route.startswith("admin/"):
            continue  # the admin gate checks each admin route
        view_class = getattr(view, "view_class", None)
        methods = [name for name in HANDLERS if hasattr(view_class, name)] if view_class else ["get"]
        missing += [f"{method.upper()} {route}" for method in methods if (method.upper(), route) not in rows]
    assert not missing, "routes with no row in the access table: " + ", ".join(missing)


# --- alice and bob's things ----------------------------------------------------------


@pytest.fixture
def bobs_meme(bob: User, template: Template) -> Meme:
    """A meme bob liked and favourited, with his settings changed."""
    meme = make_meme(template)
    set_reaction(meme.pk, bob, 1)
    set_favourite(meme.pk, bob, True)
    UserSettings.objects.create(user=bob, theme="dark", howto_seen=True)
    return meme


@pytest.fixture
def as_alice(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


def bobs_things_unchanged(meme: Meme, bob: User) -> None:
    meme.refresh_from_db()
    assert Reaction.objects.get(meme=meme, user=bob).value == 1 and meme.likes >= 1
    assert Favourite.objects.filter(meme=meme, user=bob).exists() and meme.favourites >= 1
    assert UserSettings.objects.filter(user=bob, theme="dark", howto_seen=True).exists()


def test_alice_sees_none_of_bobs_reactions_or_favourites(as_alice: Client, bobs_meme: Meme) -> None:
    item = as_alice.get(f"/api/memes/{bobs_meme.pk}/").json()
    assert (item["my_reaction"], item["favourited"]) == (0, False)
    assert (item["likes"], item["favourites"]) == (1, 1)  # the counts are public, whose they are is not
    in_feed = next(
        card for card in as_alice.get("/api/feed/").json()["results"] if card["id"] == bobs_meme.pk
    )
    assert (in_feed["my_reaction"], in_feed["favourited"]) == (0, False)
    page = as_alice.get(f"/m/{bobs_meme.pk}/").content.decode()
    assert 'data-my-reaction="0"' in page and 'data-favourited="false"' in page
    assert as_alice.get("/api/favourites/").json()["results"] == []


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("DELETE", "reaction/", None),
        ("PUT", "reaction/", {"value": -1, "user": "bob"}),
        ("DELETE", "favourite/", None),
        ("DELETE", "favourite/", {"user": "bob"}),
    ],
)
def test_alice_cannot_undo_bobs_reaction_or_favourite(
    as_alice: Client, bob: User, bobs_meme: Meme, method: str, path: str, body: dict[str, Any] | None
) -> None:
    url = f"/api/memes/{bobs_meme.pk}/{path}"
    response = as_alice.generic(method, url, json.dumps(body) if body else "", "application/json")
    assert response.status_code == 200
    bobs_things_unchanged(bobs_meme, bob)


@pytest.mark.parametrize("body", [{"theme": "light"}, {"theme": "light", "user": "bob", "id": 1}])
def test_alice_cannot_read_or_change_bobs_settings(
    as_alice: Client, bob: User, bobs_meme: Meme, body: dict[str, Any]
) -> None:
    assert as_alice.get("/api/me/settings/").json()["theme"] == "system"
    changed = as_alice.patch("/api/me/settings/", body, content_type="application/json")
    assert changed.status_code == 200 and changed.json()["theme"] == "light"
    assert 'data-theme="light"' in as_alice.get("/favourites/").content.decode()
    bobs_things_unchanged(bobs_meme, bob)


def test_alices_token_acts_for_alice_alone(client: Client, alice: User, bob: User, bobs_meme: Meme) -> None:
    token = client.post(
        "/api/auth/token/", {"username": "alice", "password": PASSWORD}, content_type="application/json"
    ).json()["token"]
    with_token = Client(HTTP_AUTHORIZATION=f"Token {token}")
    assert with_token.get("/api/me/settings/").json()["theme"] == "system"
    with_token.delete(f"/api/memes/{bobs_meme.pk}/favourite/")
    bobs_things_unchanged(bobs_meme, bob)


def test_another_site_cannot_change_a_readers_things(alice: User, template: Template) -> None:
    """A signed-in reader's browser, sent by another site: no CSRF token, no change."""
    meme = make_meme(template)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    assert browser.put(f"/api/memes/{meme.pk}/favourite/").status_code == 403
    assert browser.patch("/api/me/settings/", {"theme": "dark"}, "application/json").status_code == 403
    assert not Favourite.objects.exists() and not UserSettings.objects.filter(theme="dark").exists()
