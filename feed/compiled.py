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
(feed.models, feed.ranking); this only keeps their SQL.

A shape is at most a sort, a template flag and a page size: a few hundred
statements per process at most, kept in a bounded cache.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.db.models.sql.compiler import SQLCompiler

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
            params[index] = values[name]
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
        if type(param) is int and param == stand_in
    )
    if {name for name, _ in slots} != set(names) or any(str(number) in sql for number in stand_ins.values()):
        raise StandInLost(
            f"{build.__qualname__}{shape}: not every value of {names} is a parameter of its own"
        )
    return Statement(sql, tuple(params), slots, tuple(queryset.query.selected or ()), compiler)
