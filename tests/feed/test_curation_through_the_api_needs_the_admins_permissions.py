"""Staff curate through the API only with the model permissions the admin asks
for the same change: hiding a meme needs feed.change_meme (in the admin too,
where the hide action was open to anyone who could view memes), the insights
need view permissions on templates and generation jobs."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from feed.models import Meme, Template
from tests.conftest import make_meme


def grant(user: User, *codenames: str) -> User:
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label__in=("feed", "generation"), codename__in=codenames)
    )
    return User.objects.get(pk=user.pk)  # a fresh object: permissions are cached per instance


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_staff_who_may_only_view_memes_cannot_hide_one(clerk: User, template: Template) -> None:
    meme = make_meme(template)
    client = signed_in(grant(clerk, "view_meme"))
    assert client.put(f"/api/memes/{meme.pk}/hidden/").status_code == 403
    assert b"Hide selected memes" not in client.get("/admin/feed/meme/").content
    client.post("/admin/feed/meme/", {"action": "hide", "_selected_action": [meme.pk]})
    assert Meme.objects.get(pk=meme.pk).status == Meme.Status.READY


def test_staff_who_may_change_memes_hide_one(clerk: User, template: Template) -> None:
    meme = make_meme(template)
    client = signed_in(grant(clerk, "view_meme", "change_meme"))
    assert client.put(f"/api/memes/{meme.pk}/hidden/").json()["status"] == "hidden"
    assert client.delete(f"/api/memes/{meme.pk}/hidden/").json()["status"] == "ready"


@pytest.mark.parametrize(
    ("codenames", "allowed"),
    [((), False), (("view_template",), False), (("view_template", "view_generationjob"), True)],
)
def test_insights_need_both_view_permissions(
    clerk: User, template: Template, codenames: tuple[str, ...], allowed: bool
) -> None:
    client = signed_in(grant(clerk, *codenames))
    assert client.get("/api/insights/").status_code == (200 if allowed else 403)
    assert client.get("/insights/").status_code == (200 if allowed else 403)
    assert (b'href="/insights/"' in client.get("/").content) == allowed


def test_a_reader_given_the_permissions_is_still_no_curator(alice: User, template: Template) -> None:
    meme = make_meme(template)
    client = signed_in(grant(alice, "change_meme", "view_template", "view_generationjob"))
    assert client.put(f"/api/memes/{meme.pk}/hidden/").status_code == 403
    assert client.get("/api/insights/").status_code == 403
