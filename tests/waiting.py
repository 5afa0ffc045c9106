"""Waiting in tests for what another thread does: a condition, or an event on a queue."""

from __future__ import annotations

import queue
import time


def wait_for(predicate, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


def next_event(events: queue.Queue, kind: type, timeout: float = 3.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            event = events.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        if isinstance(event, kind):
            return event
    raise AssertionError(f"no {kind.__name__} within {timeout} s")
