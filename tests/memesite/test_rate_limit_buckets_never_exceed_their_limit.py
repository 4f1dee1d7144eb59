"""RateLimitBucket.take, the one mechanism behind every limit: a bucket of uses
per key that refills over its window, taken exactly under parallel requests."""

from __future__ import annotations

import pytest

from memesite.models import RateLimitBucket
from tests.parallel import all_at_once

NOW = 1_800_000_000.0  # seconds since the Unix epoch


@pytest.mark.django_db
def test_uses_beyond_the_limit_are_refused() -> None:
    assert [RateLimitBucket.take("k", 3, 60, now=NOW) for _ in range(5)] == [True, True, True, False, False]


@pytest.mark.django_db
def test_keys_are_counted_apart() -> None:
    assert RateLimitBucket.take("a", 1, 60) and RateLimitBucket.take("b", 1, 60)


@pytest.mark.django_db
def test_several_uses_are_taken_at_once_or_not_at_all() -> None:
    takes = [RateLimitBucket.take("memes", 100, 3600, amount, now=NOW) for amount in (64, 64, 30, 7, 6)]
    assert takes == [True, False, True, False, True]
    assert RateLimitBucket.take("memes", 100, 3600, 101, now=NOW) is False


@pytest.mark.django_db
def test_uses_come_back_over_the_window() -> None:
    assert RateLimitBucket.take("k", 2, 60, now=NOW) and RateLimitBucket.take("k", 2, 60, now=NOW)
    assert not RateLimitBucket.take("k", 2, 60, now=NOW)
    assert RateLimitBucket.wait_seconds("k", 2, 60, now=NOW) == pytest.approx(30)
    assert not RateLimitBucket.take("k", 2, 60, now=NOW + 29)
    assert RateLimitBucket.take("k", 2, 60, now=NOW + 30)  # one use back every 30 s
    # An idle bucket fills up to its limit, never beyond it.
    later = NOW + 10_000
    assert [RateLimitBucket.take("k", 2, 60, now=later) for _ in range(3)] == [True, True, False]


@pytest.mark.django_db
def test_a_take_whose_clock_is_behind_the_buckets_gets_a_use_that_is_left() -> None:
    # Parallel requests read the clock before they queue for the row: one may arrive last.
    assert RateLimitBucket.take("k", 2, 60, now=NOW)
    assert RateLimitBucket.take("k", 2, 60, now=NOW - 5)
    assert not RateLimitBucket.take("k", 2, 60, now=NOW)  # and the late take refilled nothing
    assert RateLimitBucket.wait_seconds("k", 2, 60, now=NOW - 5) == pytest.approx(30)


@pytest.mark.django_db
def test_a_window_is_a_second_to_a_day() -> None:
    with pytest.raises(ValueError, match="1 s to a day"):
        RateLimitBucket.take("k", 1, 86401)


@pytest.mark.django_db
def test_buckets_idle_for_a_day_are_forgotten() -> None:
    RateLimitBucket.take("old", 1, 60, now=NOW - 86401)
    RateLimitBucket.take("recent", 1, 60, now=NOW - 3600)
    assert RateLimitBucket.objects.forget_idle(now=NOW) == 1
    assert list(RateLimitBucket.objects.values_list("key", flat=True)) == ["recent"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_number", range(3))
def test_thirty_parallel_takers_get_exactly_the_limit(round_number: int) -> None:
    granted = all_at_once([lambda: RateLimitBucket.take("race", 10, 3600, now=NOW)] * 30)
    assert granted.count(True) == 10 and len(granted) == 30


@pytest.mark.django_db(transaction=True)
def test_parallel_takes_of_many_uses_never_overdraw() -> None:
    granted = all_at_once([lambda: RateLimitBucket.take("memes", 200, 3600, 64, now=NOW)] * 30)
    assert granted.count(True) == 3  # 3 × 64 = 192 of 200
