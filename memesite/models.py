"""The site's own table: the buckets of memesite/limits.py, the one limiter for
costly actions, which both apps use and neither owns."""

from __future__ import annotations

import functools
import time

from django.db import connection, models


class RateLimitBucketQuerySet(models.QuerySet["RateLimitBucket"]):
    def forget_idle(self, now: float | None = None) -> int:
        """Delete buckets untouched for longer than the longest window: full
        again, they are the same as no bucket. Returns how many went."""
        now = time.time() if now is None else now
        deleted, _ = self.filter(updated__lt=now - RateLimitBucket.LONGEST_WINDOW_SECONDS).delete()
        return deleted


class RateLimitBucket(models.Model):
    """Uses left of one policy for one key (a reader, an address, the whole
    site): a token bucket holding up to ``limit`` uses that refills at
    ``limit`` per ``window_seconds``. Every limit in memesite goes through
    ``take`` (memesite/limits.py): one SQL statement, atomic on SQLite and
    PostgreSQL alike.

    A token bucket rather than counts per fixed window: one row per key instead
    of one per key and window, and no double burst where two windows meet."""

    key = models.CharField(max_length=200, unique=True)
    tokens = models.FloatField()  # uses left as of `updated`; may be fractional while refilling
    # Seconds since the Unix epoch, a plain number so that both databases do
    # the refill arithmetic alike (date arithmetic differs between them).
    updated = models.FloatField()

    objects = RateLimitBucketQuerySet.as_manager()

    LONGEST_WINDOW_SECONDS = 86400  # a day: idle buckets older than this are forgotten

    class Meta:
        # The table the feed app made (feed/migrations/0006); memesite/migrations/0001
        # took the model over without moving a row.
        db_table = "feed_ratelimitbucket"
        indexes = [models.Index(fields=["updated"], name="rate_limit_updated")]

    def __str__(self) -> str:
        return f"{self.key}: {self.tokens:.1f} left"

    @classmethod
    def take(
        cls, key: str, limit: int, window_seconds: int, amount: int = 1, now: float | None = None
    ) -> bool:
        """Use ``amount`` of the ``limit`` uses ``key`` has per ``window_seconds``;
        False, using nothing, when fewer are left.

        One INSERT … ON CONFLICT DO UPDATE … WHERE: the first use creates the
        bucket full; later ones refill it for the time elapsed and take from
        it only if enough is left. The database runs it under the row's lock,
        and PostgreSQL re-checks the WHERE on the row a concurrent take left,
        so parallel takes are granted exactly ``limit`` uses."""
        if not 0 < window_seconds <= cls.LONGEST_WINDOW_SECONDS:
            raise ValueError(f"a window is 1 s to a day, not {window_seconds} s")
        if amount > limit:
            return False
        params: dict[str, str | float] = {
            "key": key,
            "limit": float(limit),
            "amount": float(amount),
            "now": time.time() if now is None else now,
            "refill": limit / window_seconds,  # uses per second
        }
        with connection.cursor() as cursor:
            cursor.execute(_take_sql(), params)
            return bool(cursor.rowcount == 1)

    @classmethod
    def wait_seconds(
        cls, key: str, limit: int, window_seconds: int, amount: int = 1, now: float | None = None
    ) -> float:
        """Seconds until ``take`` could grant ``amount`` uses of ``key`` (0: now)."""
        now = time.time() if now is None else now
        found = cls.objects.filter(key=key).values_list("tokens", "updated").first()
        if found is None:
            return 0.0
        refill = limit / window_seconds
        level = min(float(limit), found[0] + max(0.0, now - found[1]) * refill)
        return max(0.0, (min(amount, limit) - level) / refill)


@functools.cache
def _take_sql() -> str:
    """RateLimitBucket.take's statement. The bucket's clock only moves forward:
    a take whose time is behind the bucket's (parallel requests read the clock
    before they queue for the row, out of order; web processes on different
    machines differ a little) refills nothing and leaves the time as it is. Taking
    the elapsed time as negative had refused a use that was left: one of 30
    parallel favourites under a limit of 10 was refused with Retry-After 1."""
    table = connection.ops.quote_name(RateLimitBucket._meta.db_table)
    key = connection.ops.quote_name("key")
    ahead = f"%(now)s > {table}.updated"
    refilled = f"{table}.tokens + (CASE WHEN {ahead} THEN %(now)s - {table}.updated ELSE 0 END) * %(refill)s"
    level = f"(CASE WHEN {refilled} < %(limit)s THEN {refilled} ELSE %(limit)s END)"
    latest = f"(CASE WHEN {ahead} THEN %(now)s ELSE {table}.updated END)"
    return (
        f"INSERT INTO {table} ({key}, tokens, updated) VALUES (%(key)s, %(limit)s - %(amount)s, %(now)s)"
        f" ON CONFLICT ({key}) DO UPDATE SET tokens = {level} - %(amount)s, updated = {latest}"
        f" WHERE {level} >= %(amount)s"
    )
