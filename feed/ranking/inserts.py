"""Rows written by one multi-row INSERT: a feed session's places, a page's seen memes."""

from __future__ import annotations

import functools
from typing import Any

from django.db import connection, models


def insert_rows(
    model: type[models.Model],
    columns: tuple[str, ...],
    rows: list[tuple[Any, ...]],
    ignore_conflicts: bool = False,
) -> None:
    """One multi-row INSERT outside any transaction: a statement, one round
    trip. (``bulk_create`` wraps its INSERT in a transaction, which on
    PostgreSQL is a second round trip for the COMMIT on every feed page.)"""
    if not rows:
        return
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in columns)
    conflicts = " ON CONFLICT DO NOTHING" if ignore_conflicts else ""
    into = f"INSERT INTO {quote(model._meta.db_table)} ({names})"
    if connection.vendor == "postgresql":
        sql = f"{into} {_unnest(model, columns)}{conflicts}"
        params = [list(column) for column in zip(*rows, strict=True)]
    else:
        values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * len(rows))
        sql, params = f"{into} VALUES {values}{conflicts}", [value for row in rows for value in row]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@functools.cache
def _unnest(model: type[models.Model], columns: tuple[str, ...]) -> str:
    """``SELECT * FROM UNNEST(…)`` of one array per column, as Django's own
    bulk insert reads rows on PostgreSQL: one statement text for any number
    of rows, with one value per column, where ``VALUES`` took one per column
    and row. psycopg parses it once per process (it keeps no statement of
    over 50 values) and prepares it once per connection: an extension's 100
    places cost 0.26-0.36 ms of Python against 0.60-0.92 with ``VALUES`` (300
    values), the same PostgreSQL CPU; a page's 20 seen memes cost the same
    either way (in process, side by side; docs/feed.md, "Figures")."""
    types = [model._meta.get_field(column).db_type(connection) for column in columns]
    arrays = ", ".join(f"(%s)::{str(kind).split('(')[0]}[]" for kind in types)
    return f"SELECT * FROM UNNEST({arrays})"
