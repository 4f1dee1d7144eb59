"""/insights/ says what each share means and why a template's share is what it
is: the bandit's chance of picking it, the stock the top-up keeps for it, its
share of the memes queued in the last day split by what asked for them, and a
sentence on its votes. Before, one figure called "share of new memes" was the
bandit's chance alone, though nearly every new meme was a stock top-up."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from generation.models import GenerationJob
from generation.stock import top_up_stock
from tests.steering import templates_with_votes


@pytest.fixture
def loop(alice: User, bob: User, charlie: User) -> None:
    """Confession Bear liked 3 times of 4, two templates without votes, a top-up
    and one reader who ran low on the bear."""
    votes = {"bear": (3, 1), "plain": (0, 0), "other": (0, 0)}
    templates = templates_with_votes(votes, [alice, bob, charlie])
    top_up_stock()
    GenerationJob.objects.create(template=templates["bear"], count=64, reason=GenerationJob.Reason.FEED)


def test_the_api_gives_each_templates_share_its_parts_and_the_reason(
    client: Client, staff: User, loop: None
) -> None:
    client.force_login(staff)
    rows = {row["slug"]: row for row in client.get("/api/insights/").json()["templates"]}

    bear, plain = rows["bear"], rows["plain"]
    assert bear["stock_target"] > plain["stock_target"] >= 10
    topped_up = bear["stock_target"]  # the memes it was voted on never became ready: no stock
    assert bear["new_memes_by_reason"] == {"stock": topped_up, "feed": 64, "request": 0, "demo": 0}
    assert bear["new_memes"] == topped_up + 64
    assert bear["new_memes_share"] > plain["new_memes_share"] > 0
    assert sum(row["new_memes_share"] for row in rows.values()) == pytest.approx(1.0, abs=0.01)
    assert bear["why"].startswith("Liked in 3 of 4 votes (75%), above the 50% every template starts from")
    assert "the bandit picks it 1.3× as often as an even split would" in bear["why"]
    assert f"the top-up keeps {topped_up} fresh memes for it (10 as for every template" in bear["why"]
    assert plain["why"].startswith("No votes yet")


def test_the_page_says_what_each_figure_means(client: Client, staff: User, loop: None) -> None:
    client.force_login(staff)
    page = client.get("/insights/").content.decode()

    assert "What the figures mean" in page
    assert "each template starting as if it had 10 likes and 10 dislikes" in page
    assert "10 for every template, and the rest of 30 a template on average shared out by the bandit" in page
    assert "stock top-up" in page and "a reader near the end of the feed" in page
    assert "Why: Liked in 3 of 4 votes (75%), above the 50% every template starts from" in page
    assert "Why: No votes yet" in page
