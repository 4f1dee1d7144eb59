"""rating is a Bayesian average: (likes + 4 × prior) / (votes + 4), where the
prior is the meme's template's like rate when it became ready. One early like
does not beat 90 likes out of 100, and a loved template's new memes start higher."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from feed.models import Meme, Template
from feed.ranking.scores import PRIOR_LIKE_RATE, rating_of
from tests.conftest import make_meme, make_template
from tests.feed_data import bulk_memes


def test_one_like_does_not_beat_ninety_out_of_a_hundred() -> None:
    assert rating_of(1, 0) < rating_of(90, 10)
    assert rating_of(0, 0) == PRIOR_LIKE_RATE
    assert rating_of(3, 0) == pytest.approx((3 + 2) / 7)


def test_template_like_rates_come_from_their_memes_votes(db: None) -> None:
    loved, hated = make_template("loved"), make_template("hated")
    make_template("unseen")
    bulk_memes(loved, 10, likes=9, dislikes=1)
    bulk_memes(hated, 10, likes=1, dislikes=9)
    Template.objects.refresh_like_rates()
    rates = dict(Template.objects.values_list("slug", "like_rate"))
    assert rates["loved"] == pytest.approx((90 + 10) / (100 + 20))
    assert rates["hated"] == pytest.approx((10 + 10) / (100 + 20))
    assert rates["unseen"] == PRIOR_LIKE_RATE


def test_a_new_meme_starts_at_its_templates_like_rate(db: None) -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    loved = Meme.initial_scores(at, prior=0.8)
    plain = Meme.initial_scores(at)
    assert loved["rating"] == loved["prior"] == 0.8 and plain["rating"] == PRIOR_LIKE_RATE
    assert loved["hot"] - plain["hot"] == pytest.approx(0.3)


def test_votes_move_a_meme_away_from_its_prior(alice: object, template: Template) -> None:
    from feed.models import set_reaction

    meme = make_meme(template, prior=0.8, rating=0.8)
    set_reaction(meme.pk, alice, -1)
    meme.refresh_from_db()
    assert meme.rating == pytest.approx((0 + 0.8 * 4) / 5)
