import pytest
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Reaction
from tests.conftest import make_meme, make_template


@pytest.fixture
def voted(alice: User, bob: User) -> None:
    loved = make_meme(make_template("loved"))
    make_template("ignored")
    Reaction.objects.create(user=alice, meme=loved, value=Reaction.LIKE)
    Reaction.objects.create(user=bob, meme=loved, value=Reaction.LIKE)


def test_staff_see_like_rate_share_and_stock_per_template(client: Client, staff: User, voted: None) -> None:
    client.force_login(staff)
    data = client.get("/api/insights/").json()

    by_slug = {row["slug"]: row for row in data["templates"]}
    assert by_slug["loved"]["like_rate"] == 1.0 and by_slug["ignored"]["like_rate"] is None
    assert by_slug["loved"]["bandit_share"] > by_slug["ignored"]["bandit_share"]
    assert sum(row["bandit_share"] for row in data["templates"]) == pytest.approx(1.0, abs=0.01)
    assert set(data["jobs"]) == {"queued", "running", "done", "failed"}

    page = client.get("/insights/")
    assert page.status_code == 200 and b"<svg" in page.content and b"Loved" in page.content


def test_readers_and_visitors_are_kept_out(client: Client, alice: User, voted: None) -> None:
    assert client.get("/api/insights/").status_code in (401, 403)
    assert client.get("/insights/").status_code == 302
    client.force_login(alice)
    assert client.get("/api/insights/").status_code == 403
    assert client.get("/insights/").status_code == 302
