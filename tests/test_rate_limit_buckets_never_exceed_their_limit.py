import threading

import pytest

from feed.models import RateLimitBucket


@pytest.mark.django_db
def test_uses_beyond_the_limit_are_refused() -> None:
    assert [RateLimitBucket.take("k", 3, 60) for _ in range(5)] == [True, True, True, False, False]


@pytest.mark.django_db
def test_keys_are_counted_apart() -> None:
    assert RateLimitBucket.take("a", 1, 60) and RateLimitBucket.take("b", 1, 60)


@pytest.mark.django_db(transaction=True)
def test_concurrent_takers_get_exactly_the_limit() -> None:
    granted: list[bool] = []
    lock = threading.Lock()

    def take() -> None:
        from django.db import connection

        try:
            result = RateLimitBucket.take("race", 5, 60)
            with lock:
                granted.append(result)
        finally:
            connection.close()

    threads = [threading.Thread(target=take) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert granted.count(True) == 5 and len(granted) == 12
