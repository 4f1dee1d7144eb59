"""Querysets compiled once per shape and process, then run with new values.

Django takes longer to build and compile a feed page's querysets than
PostgreSQL takes to run them: 2.3 ms of Python for a page's read and 4.4 ms
for a session's extension (one page in four), against 0.3 ms to run the read
compiled; a whole feed page fell from 8.6 to 4.9 ms of Python (in process, on
the shared 2-core machine under load; docs/feed.md). Their SQL changes only
with a few *shape* values (the sort, one template or all, how many rows);
what each page differs by (its session, position, reader, template) are bound
parameters. So each shape is built and compiled once, with stand-in numbers
for those values, and every later call runs that SQL with its own values put
where the stand-ins were. The querysets stay the one statement of the rules
(feed.ranking.sessions, feed.ranking.pages); this only keeps their SQL.

A shape is at most a sort, a template flag and a page size: a few hundred
statements per process at most, kept in a bounded cache.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from django.db import connection
from django.db.models import QuerySet
from django.db.models.sql.compiler import SQLCompiler

if TYPE_CHECKING:
    from django.db.backends.postgresql.operations import DatabaseOperations as PostgreSQLOperations

# Stand-ins are only compared with the compiled parameters, so they need to be
# within every column's range (Django drops a comparison with a number outside
# it) and unlike any constant of the querysets, not unlike real values.
STAND_IN = 1_999_999_001


class StandInLost(RuntimeError):
    """A queryset changed a stand-in on its way into SQL (inlined or computed
    with it): its SQL cannot be reused with other values."""


@dataclass(frozen=True)
class Statement:
    """One shape's SQL, and where each call's values go among its parameters."""

    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[str, int], ...]  # (value name, index in params)
    names: tuple[str, ...]  # the queryset's values() names, in column order
    compiler: SQLCompiler  # Django's, for its converters (JSON text, SQLite dates)

    def bind(self, values: dict[str, int]) -> list[Any]:
        params = list(self.params)
        for name, index in self.slots:
            # The stand-in's own type: psycopg 3's Int8 and the like, which
            # Django gives a column's values so PostgreSQL is told their type.
            params[index] = type(params[index])(values[name])
        return params

    def rows(self, **values: int) -> list[dict[str, Any]]:
        """The values() rows the queryset would give with these values."""
        with connection.cursor() as cursor:
            cursor.execute(self.sql, self.bind(values))
            fetched = cursor.fetchall()
        return [dict(zip(self.names, row, strict=True)) for row in self.compiler.results_iter([fetched])]


@functools.lru_cache(maxsize=512)
def statement(
    build: Callable[..., QuerySet[Any]], shape: tuple[Any, ...], names: tuple[str, ...]
) -> Statement:
    """``build(*shape, **values)``'s SQL, for every ``values`` with these ``names``."""
    stand_ins = {name: STAND_IN + number for number, name in enumerate(names)}
    queryset = build(*shape, **stand_ins)
    compiler = queryset.query.get_compiler(queryset.db)
    sql, params = compiler.as_sql()
    slots = tuple(
        (name, index)
        for index, param in enumerate(params)
        for name, stand_in in stand_ins.items()
        if isinstance(param, int) and not isinstance(param, bool) and param == stand_in
    )
    if {name for name, _ in slots} != set(names) or any(str(number) in sql for number in stand_ins.values()):
        raise StandInLost(
            f"{build.__qualname__}{shape}: not every value of {names} is a parameter of its own"
        )
    if connection.vendor == "postgresql":
        sql, params, slots = constants_written_in(sql, params, slots)
    return Statement(sql, tuple(params), slots, tuple(queryset.query.selected or ()), compiler)


PLACEHOLDER = re.compile(r"%%|%s")


def constants_written_in(
    sql: str, params: Sequence[Any], slots: tuple[tuple[str, int], ...]
) -> tuple[str, list[Any], tuple[tuple[str, int], ...]]:
    """The SQL with every parameter but the slots' written in as a literal.

    psycopg prepares a statement a connection runs often (settings.py), and
    PostgreSQL then reuses one generic plan for it, made without the values
    bound. Bound, the querysets' constants (``status = 'ready'``, ``likes +
    dislikes < 5``) prove no partial index's predicate, so the generic plan of
    an extension's candidates could use none of the feed's indexes and
    PostgreSQL planned it anew every time (0 generic plans of 67). Written in,
    it plans once per connection. Prepared with the constants written in, a
    page following ``next`` cost 4.0-4.2 ms of PostgreSQL CPU against 5.2-5.5 ms
    unprepared, a new feed's first page 12.4-12.7 against 14.2-15.4 (10,000
    memes, in process, side by side; docs/feed.md)."""
    slot_names = {index: name for name, index in slots}
    kept: list[Any] = []
    new_slots: list[tuple[str, int]] = []
    numbered = iter(range(len(params)))

    def written(match: re.Match[str]) -> str:
        if match.group() == "%%":
            return "%%"
        index = next(numbered)
        if index in slot_names:
            new_slots.append((slot_names[index], len(kept)))
            kept.append(params[index])
            return "%s"
        literal = cast("PostgreSQLOperations", connection.ops).compose_sql("%s", [params[index]])
        return str(literal).replace("%", "%%")

    return PLACEHOLDER.sub(written, sql), kept, tuple(new_slots)
