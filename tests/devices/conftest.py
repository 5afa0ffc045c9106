"""Shared fixtures: a fresh simulated pin factory and an input queue per test."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest

from companion.devices.factory import make_pin_factory


@pytest.fixture
def factory() -> Iterator[object]:
    pin_factory = make_pin_factory("simulated")
    yield pin_factory
    pin_factory.close()


@pytest.fixture
def events() -> queue.Queue:
    return queue.Queue()


def drain(q: queue.Queue) -> list[object]:
    """Everything on the queue right now, in order."""
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out
