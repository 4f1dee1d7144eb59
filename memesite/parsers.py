"""The API's one request parser: DRF's JSON parser with a limit on nesting.

Python's json module parses nested arrays and objects by recursion, so a body
like [[[[…]]]] a thousand deep raises RecursionError, which DRF does not catch:
a 500 and a long traceback for one anonymous request. Somewhat less deep, the
parse succeeds and whatever walks the value next (validation, an error message
quoting it) may recurse out instead. No endpoint takes anything deeper than an
object holding a list (depth 2), so anything past MAX_DEPTH is a 400 here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32
MESSAGE = f"JSON nested deeper than {MAX_DEPTH} levels is not accepted."


class DepthLimitedJSONParser(JSONParser):
    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(MESSAGE) from None
        if depth_exceeds(data, MAX_DEPTH):
            raise ParseError(MESSAGE)
        return data


def depth_exceeds(value: Any, limit: int) -> bool:
    """Whether lists and dicts in ``value`` nest more than ``limit`` deep; a
    walk with its own stack, since recursion is what fails on deep values."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in item if isinstance(child, (list, dict)))
    return False
