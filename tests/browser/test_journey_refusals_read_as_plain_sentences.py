"""static/js/api.js, the pages' one API helper, turns every refusal into a
sentence a reader can act on: a 429 says when to try again (Retry-After in
seconds or as a date), DRF's "Request was throttled" never shows, a 400 names
the field. Run in Chromium on the module the pages load."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.browser

DRF_THROTTLED = {"detail": "Request was throttled. Expected available in 42 seconds."}


@pytest.fixture
def api_page(chromium: Any, live_server: Any, transactional_db: None) -> Iterator[Any]:
    """A page with the site's api.js module at ``window.api``, for the test only."""
    page = chromium.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.evaluate("async () => { window.api = await import('/static/js/api.js'); }")
    yield page
    page.close()


@pytest.fixture
def message(api_page: Any) -> Any:
    def message(body: Any, status: int, retry_after: int | None = None, too_many: str | None = None) -> str:
        arguments = [body, status, retry_after] + ([too_many] if too_many else [])
        return str(api_page.evaluate("(args) => window.api.errorMessage(...args)", arguments))

    return message


def test_drfs_throttle_message_becomes_plain_words_with_the_wait(message: Any) -> None:
    assert (
        message(DRF_THROTTLED, 429, 42, "You've asked for memes 10 times this minute")
        == "You've asked for memes 10 times this minute — try again in 42 seconds."
    )
    assert message(DRF_THROTTLED, 429, 42) == "You are going a little fast — try again in 42 seconds."
    assert message(DRF_THROTTLED, 429, None) == "You are going a little fast: try again in a minute."


def test_a_servers_own_refusal_keeps_its_words_and_gains_the_real_wait(message: Any) -> None:
    refusal = {"detail": "You can make 40 memes an hour; please try again later."}
    assert message(refusal, 429, 1800) == "You can make 40 memes an hour — try again in 30 minutes."
    assert message(refusal, 429, None) == refusal["detail"]
    assert message({"detail": "Slow down."}, 429, 1) == "Slow down — try again in 1 second."


def test_retry_after_is_read_as_seconds_or_as_a_date(api_page: Any) -> None:
    seconds = "(header) => window.api.retryAfterSeconds(header)"
    assert api_page.evaluate(seconds, "42") == 42
    assert api_page.evaluate(seconds, None) is None
    assert api_page.evaluate(seconds, "soon") is None
    in_90_seconds = api_page.evaluate("() => new Date(Date.now() + 90500).toUTCString()")
    assert 88 <= api_page.evaluate(seconds, in_90_seconds) <= 91
    assert api_page.evaluate("() => window.api.waitText(7200)") == "2 hours"


def test_other_refusals_name_the_problem(message: Any) -> None:
    assert message({"keywords": ["Use at most 3 keywords."]}, 400) == "Keywords: Use at most 3 keywords."
    assert message({"non_field_errors": ["Bad body."]}, 400) == "Bad body."
    missing = {"detail": "There is no such meme in the feed."}
    assert message(missing, 404) == missing["detail"]
    assert message(None, 500) == "Something went wrong; please try again."
    assert message({"detail": "CSRF Failed"}, 403) == "Please sign in again."
