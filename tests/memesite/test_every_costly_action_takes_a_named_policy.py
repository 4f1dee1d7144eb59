"""Every costly action goes through the one limiter (memesite/limits.py): each
API operation that writes (POST, PUT, PATCH, DELETE) and each sign-in, sign-up
and password page is in the table below, either with the policies it takes or
as not costly with the reason why. An operation added without a row fails
``test_every_writing_operation_and_account_page_has_a_row``; each costly row
is then sent, and the policies it really took (every bucket a take touches,
whoever calls it) must be the ones its row names."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import get_resolver

from memesite.limits import POLICIES
from memesite.models import RateLimitBucket
from tests.conftest import PASSWORD, make_meme, make_template
from tests.routes import routes

WRITES = ("post", "put", "patch", "delete")
ACCOUNT_PAGES = ("login", "signup", "password")  # what a sign-in, sign-up or password page's route holds


@dataclass(frozen=True)
class NotCostly:
    reason: str


MAKE_A_MEME = {"generation", "generation_hourly", "generation_site", "request_memes", "site_memes"}
# A feed read without a cursor by a reader near the end of what is ready: a new
# frozen feed, a page of memes served, and a job of new memes for them.
FRESH_READ_RUNNING_LOW = {"feed_sessions", "feed_memes", "feed_jobs", "site_memes"}
TABLE: dict[tuple[str, str], set[str] | NotCostly] = {
    # the API
    ("GET", "api/feed/"): FRESH_READ_RUNNING_LOW,  # a read, and costly: the one such
    ("PUT", "api/memes/<int:meme_id>/reaction/"): {"reactions"},
    ("DELETE", "api/memes/<int:meme_id>/reaction/"): {"reactions"},
    ("PUT", "api/memes/<int:meme_id>/favourite/"): {"reactions"},
    ("DELETE", "api/memes/<int:meme_id>/favourite/"): {"reactions"},
    ("POST", "api/memes/<int:meme_id>/report/"): {"reactions"},
    ("PUT", "api/memes/<int:meme_id>/hidden/"): {"reactions"},
    ("DELETE", "api/memes/<int:meme_id>/hidden/"): {"reactions"},
    ("PATCH", "api/me/settings/"): NotCostly("rewrites the reader's one row of settings in place"),
    ("POST", "api/make/"): MAKE_A_MEME,
    ("POST", "api/auth/token/"): {"sign_in"},
    ("DELETE", "api/auth/token/"): NotCostly("deletes the reader's own tokens; checks no password"),
    # the pages
    ("POST", "accounts/signup/"): {"sign_up", "sign_up_site"},
    ("POST", "accounts/login/"): {"sign_in"},
    ("POST", "accounts/password/"): {"sign_in"},
    ("POST", "accounts/password/changed/"): NotCostly("says the password changed; takes no form"),
    ("POST", "admin/login/"): {"sign_in"},
    ("POST", "admin/password_change/"): {"sign_in"},
    ("POST", "admin/password_change/done/"): NotCostly("says the password changed; takes no form"),
    ("POST", "admin/auth/user/<id>/password/"): NotCostly(
        "staff allowed to change accounts set a password by hand: no password is checked, "
        "and a hash a curator's click is no attack"
    ),
}


def operations() -> set[tuple[str, str]]:
    """(method, route) for each API operation that writes and each account page's form."""
    found = set()
    for route, view in routes(get_resolver().url_patterns):
        if route.startswith("api/"):
            view_class = getattr(view, "view_class", None)
            found |= {(method.upper(), route) for method in WRITES if hasattr(view_class, method)}
        elif any(word in route for word in ACCOUNT_PAGES):
            found.add(("POST", route))
    return found


def test_every_writing_operation_and_account_page_has_a_row() -> None:
    found = operations()
    assert sorted(found - TABLE.keys()) == [], "name the policies these take, or why they are not costly"
    extra = {key for key in TABLE.keys() - found if key != ("GET", "api/feed/")}
    assert sorted(extra) == [], "rows for operations that are gone"


def test_every_policy_is_taken_by_an_action() -> None:
    taken = set().union(*(row for row in TABLE.values() if isinstance(row, set)))
    assert taken == set(POLICIES)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The policies of every bucket taken from, by whatever takes."""
    policies: set[str] = set()
    take = RateLimitBucket.take

    def counted(key: str, *args: Any, **kwargs: Any) -> bool:
        policies.add(key.split(":", 1)[0])
        return take(key, *args, **kwargs)

    monkeypatch.setattr(RateLimitBucket, "take", staticmethod(counted))
    return policies


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclass(frozen=True)
class Sent:
    """A costly row as a test sends it."""

    who: str  # "alice", "staff" or "nobody"
    url: str  # {meme} is a ready meme's id
    body: dict[str, Any]
    status: int  # the answer that shows it went through
    method: str = "POST"
    form: bool = False  # a page's form, else the API's JSON

    def to(self, client: Client, meme_id: int) -> Any:
        url = self.url.format(meme=meme_id)
        if self.form:
            return client.post(url, self.body)
        return client.generic(
            self.method, url, json.dumps(self.body) if self.body else "", "application/json"
        )


NEW_PASSWORD = {"new_password1": "a brand new staple battery", "new_password2": "a brand new staple battery"}
ALICE = {"username": "alice", "password": PASSWORD}
# Each costly row as it is sent.
SENT: dict[tuple[str, str], Sent] = {
    ("GET", "api/feed/"): Sent("alice", "/api/feed/", {}, 200, "GET"),
    ("PUT", "api/memes/<int:meme_id>/reaction/"): Sent(
        "alice", "/api/memes/{meme}/reaction/", {"value": 1}, 200, "PUT"
    ),
    ("DELETE", "api/memes/<int:meme_id>/reaction/"): Sent(
        "alice", "/api/memes/{meme}/reaction/", {}, 200, "DELETE"
    ),
    ("PUT", "api/memes/<int:meme_id>/favourite/"): Sent(
        "alice", "/api/memes/{meme}/favourite/", {}, 200, "PUT"
    ),
    ("DELETE", "api/memes/<int:meme_id>/favourite/"): Sent(
        "alice", "/api/memes/{meme}/favourite/", {}, 200, "DELETE"
    ),
    ("POST", "api/memes/<int:meme_id>/report/"): Sent(
        "alice", "/api/memes/{meme}/report/", {"reason": "spam"}, 201
    ),
    ("PUT", "api/memes/<int:meme_id>/hidden/"): Sent("staff", "/api/memes/{meme}/hidden/", {}, 200, "PUT"),
    ("DELETE", "api/memes/<int:meme_id>/hidden/"): Sent(
        "staff", "/api/memes/{meme}/hidden/", {}, 200, "DELETE"
    ),
    ("POST", "api/make/"): Sent("alice", "/api/make/", {"template": "success"}, 202),
    ("POST", "api/auth/token/"): Sent("nobody", "/api/auth/token/", ALICE, 200),
    ("POST", "accounts/signup/"): Sent(
        "nobody",
        "/accounts/signup/",
        {"username": "dave", "password1": PASSWORD, "password2": PASSWORD},
        302,
        form=True,
    ),
    ("POST", "accounts/login/"): Sent("nobody", "/accounts/login/", ALICE, 302, form=True),
    ("POST", "accounts/password/"): Sent(
        "alice", "/accounts/password/", {"old_password": PASSWORD, **NEW_PASSWORD}, 302, form=True
    ),
    ("POST", "admin/login/"): Sent(
        "nobody", "/admin/login/", {"username": "staff", "password": PASSWORD}, 302, form=True
    ),
    ("POST", "admin/password_change/"): Sent(
        "staff", "/admin/password_change/", {"old_password": PASSWORD, **NEW_PASSWORD}, 302, form=True
    ),
}


def costly_rows() -> list[Any]:
    return [
        pytest.param(operation, policies, id=f"{operation[0]} {operation[1]}")
        for operation, policies in TABLE.items()
        if isinstance(policies, set)
    ]


@pytest.mark.parametrize(("operation", "policies"), costly_rows())
def test_each_costly_action_takes_the_policies_its_row_names(
    alice: User, staff: User, drawn: set[str], operation: tuple[str, str], policies: set[str]
) -> None:
    meme = make_meme(make_template("success"))
    sent = SENT[operation]
    client = Client()
    if sent.who != "nobody":
        client.force_login({"alice": alice, "staff": staff}[sent.who])
    response = sent.to(client, meme.pk)
    assert response.status_code == sent.status, response.content[:300]
    assert drawn == policies
