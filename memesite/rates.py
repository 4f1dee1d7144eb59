"""A limit's rate, written as uses per period (``120/minute``, ``5/h``, ``1/day``):
the one parser of every limit's setting, read by settings.py at start-up (a bad
value stops the process), by the limiter (memesite/limits.py) at each take,
and by pages that explain a limit in words.

Plain Python, no Django: settings.py imports it before any app is loaded."""

from __future__ import annotations

from dataclasses import dataclass

# Seconds in each period, by its name; "m", "min", "mins", "minute" and
# "minutes" all name the minute.
PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
SHORT = {"s": "second", "sec": "second", "m": "minute", "min": "minute", "h": "hour", "d": "day"}
# "an hour", not "a hour", in sentences.
ARTICLES = {"second": "a", "minute": "a", "hour": "an", "day": "a"}


@dataclass(frozen=True)
class Rate:
    uses: int
    period: str  # a key of PERIODS: the time in which ``uses`` come back

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``120/minute``, ``10/m``, ``5/hours``, ``1/day``: at least one use per
        second, minute, hour or day. ValueError for anything else."""
        uses, slash, period = text.strip().lower().partition("/")
        name = period_name(period.strip())
        if not (slash and uses.strip().isdigit() and int(uses) >= 1 and name):
            raise ValueError(f"must be uses per second, minute, hour or day, like 120/minute, not {text!r}")
        return cls(int(uses), name)

    @property
    def seconds(self) -> int:
        return PERIODS[self.period]

    def __str__(self) -> str:
        return f"{self.uses}/{self.period}"

    def each_period(self) -> str:
        """``an hour``: the period as a sentence says it ("30 memes an hour")."""
        return f"{ARTICLES[self.period]} {self.period}"


def period_name(text: str) -> str | None:
    """The period a spelling names, or None."""
    for spelling in (text, text.removesuffix("s")):
        if spelling in PERIODS:
            return spelling
        if spelling in SHORT:
            return SHORT[spelling]
    return None
