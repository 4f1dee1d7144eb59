"""Running requests truly at once, as a hostile client would."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from django.db import connections

T = TypeVar("T")


def all_at_once(actions: list[Callable[[], T]]) -> list[T]:
    """Run each action in its own thread, released together; each thread
    closes its own database connections when done. Results in order."""
    start = threading.Barrier(len(actions))

    def run(action: Callable[[], T]) -> T:
        try:
            start.wait()
            return action()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=len(actions)) as pool:
        return [done.result() for done in [pool.submit(run, action) for action in actions]]
