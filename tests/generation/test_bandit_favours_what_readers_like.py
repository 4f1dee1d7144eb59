"""The bandit's arithmetic: plain functions, no database."""

import random

from generation.bandit import Votes, choose, shares


def test_a_template_with_many_likes_wins_most_draws() -> None:
    stats = {"loved": Votes(90, 10), "meh": Votes(50, 50), "hated": Votes(5, 95)}
    result = shares(stats)
    assert result["loved"] > 0.9 and result["hated"] < 0.01


def test_templates_nobody_voted_on_still_get_a_chance() -> None:
    stats = {"proven": Votes(6, 4), "new": Votes(0, 0)}
    assert 0.2 < shares(stats)["new"] < 0.8


def test_no_templates_means_no_picks() -> None:
    assert choose({}, 5, random.Random(1)) == []
    assert shares({}) == {}
