"""Staff hide a meme from every feed and bring it back; readers cannot.
Readers' reports reach the moderators once per reader."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Report, Template
from tests.conftest import make_meme


def test_readers_cannot_hide_memes(client: Client, alice: User, template: Template) -> None:
    meme = make_meme(template)
    client.force_login(alice)
    assert client.put(f"/api/memes/{meme.pk}/hidden/").status_code == 403
    assert Meme.objects.get(pk=meme.pk).status == Meme.Status.READY


def test_staff_hide_and_unhide(client: Client, staff: User, alice: User, template: Template) -> None:
    meme = make_meme(template)
    client.force_login(staff)
    assert client.put(f"/api/memes/{meme.pk}/hidden/").json() == {"id": meme.pk, "status": "hidden"}
    client.force_login(alice)
    assert client.get("/api/feed/").json()["results"] == []
    client.force_login(staff)
    assert client.delete(f"/api/memes/{meme.pk}/hidden/").json()["status"] == "ready"
    assert client.put("/api/memes/999999/hidden/").status_code == 404


def test_reports_count_once_per_reader(client: Client, alice: User, bob: User, template: Template) -> None:
    meme = make_meme(template)
    client.force_login(alice)
    first = client.post(
        f"/api/memes/{meme.pk}/report/", {"reason": "offensive"}, content_type="application/json"
    )
    again = client.post(f"/api/memes/{meme.pk}/report/", {"reason": "spam"}, content_type="application/json")
    client.force_login(bob)
    client.post(f"/api/memes/{meme.pk}/report/", {}, content_type="application/json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert Meme.objects.get(pk=meme.pk).reports == 2
    assert set(Report.objects.values_list("reason", flat=True)) == {"offensive", "other"}


def test_a_bad_report_reason_says_why(client: Client, alice: User, template: Template) -> None:
    meme = make_meme(template)
    client.force_login(alice)
    response = client.post(
        f"/api/memes/{meme.pk}/report/", {"reason": "meh"}, content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["reason"]
