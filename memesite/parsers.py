"""The site's one limit on JSON nesting: the API's request parser (DRF's JSON
parser with the limit) and ``load_json`` for JSON read outside the API (the
template admin's box editor and its live preview).

Python's json module parses nested arrays and objects by recursion, so a body
like [[[[…]]]] a thousand deep raises RecursionError, which DRF does not catch:
a 500 and a long traceback for one anonymous request. Somewhat less deep, the
parse succeeds and whatever walks the value next (validation, an error message
quoting it) may recurse out instead. No endpoint takes anything deeper than an
object holding a list of boxes (depth 3), so anything past MAX_DEPTH is refused.

The API's parser also refuses a JSON body over MAX_JSON_BYTES (413), unread
when its length is declared: the largest body an endpoint takes (a template's
boxes and example captions) is a few kilobytes, while parsing the 12 MB Django
would otherwise accept took 3 s of a web worker, anonymously on the token
endpoint."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping
from functools import partial
from typing import IO, Any

from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

from memesite.middleware import declared_length

MAX_DEPTH = 32
MESSAGE = f"JSON nested deeper than {MAX_DEPTH} levels is not accepted."


class TooDeep(ValueError):
    """JSON nested deeper than MAX_DEPTH; the message says so."""

    def __init__(self) -> None:
        super().__init__(MESSAGE)


MAX_JSON_BYTES = 64 * 1024
TOO_LARGE = f"A JSON body may be at most {MAX_JSON_BYTES // 1024} KB."


class JSONTooLarge(APIException):
    status_code = 413
    default_detail = TOO_LARGE
    default_code = "too_large"


class DepthLimitedJSONParser(JSONParser):
    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        request = (parser_context or {}).get("request")
        if request is not None and declared_length(request) > MAX_JSON_BYTES:
            raise JSONTooLarge()
        body = stream.read(MAX_JSON_BYTES + 1)
        if len(body) > MAX_JSON_BYTES:  # a body sent without its length
            raise JSONTooLarge()
        try:
            return within_depth(partial(super().parse, io.BytesIO(body), media_type, parser_context))
        except TooDeep:
            raise ParseError(MESSAGE) from None


def load_json(text: str | bytes) -> Any:
    """The value ``text`` holds; TooDeep past MAX_DEPTH, ValueError when it is not JSON
    (an integer over Python's 4,300 digits included)."""
    return within_depth(partial(json.loads, text))


def within_depth(parse: Callable[[], Any]) -> Any:
    """What ``parse`` returns, or TooDeep if it nests past MAX_DEPTH or recursed out parsing."""
    try:
        data = parse()
    except RecursionError:
        raise TooDeep() from None
    if depth_exceeds(data, MAX_DEPTH):
        raise TooDeep()
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
