"""sd_notify over a real unix datagram socket, as systemd would receive it."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import sdnotify


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, dict[str, str]]]:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield sock, {"NOTIFY_SOCKET": str(path)}
    sock.close()


def test_ready_stopping_and_status_reach_the_socket(listener) -> None:  # type: ignore[no-untyped-def]
    sock, env = listener
    assert sdnotify.ready(env)
    assert sock.recv(256) == b"READY=1"
    assert sdnotify.status("running\n(demo)", env)
    assert sock.recv(256) == b"STATUS=running (demo)"
    assert sdnotify.stopping(env)
    assert sock.recv(256) == b"STOPPING=1"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="abstract sockets are Linux's")
def test_abstract_socket_names_start_with_at() -> None:
    name = f"companion-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(2)
    try:
        assert sdnotify.notify("READY=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(64) == b"READY=1"
    finally:
        sock.close()


def test_without_systemd_everything_is_a_quiet_no_op(tmp_path: Path) -> None:
    assert sdnotify.ready({}) is False
    assert sdnotify.Watchdog({}).kick() is False
    # a socket that vanished is not an error either
    assert sdnotify.notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "gone.sock")}) is False


def test_watchdog_pings_at_most_every_half_interval(listener) -> None:  # type: ignore[no-untyped-def]
    sock, env = listener
    now = [100.0]
    dog = sdnotify.Watchdog({**env, "WATCHDOG_USEC": "2000000"}, clock=lambda: now[0])
    assert dog.enabled and dog.period == 1.0
    sent = []
    for t in (0.0, 0.2, 0.5, 0.99, 1.0, 1.5, 2.1):
        now[0] = 100.0 + t
        sent.append(dog.kick())
    assert sent == [True, False, False, False, True, False, True]
    assert [sock.recv(64) for _ in range(3)] == [b"WATCHDOG=1"] * 3


def test_watchdog_meant_for_another_process_is_ignored(listener) -> None:  # type: ignore[no-untyped-def]
    _, env = listener
    dog = sdnotify.Watchdog({**env, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "1"})
    assert not dog.enabled and dog.kick() is False
    mine = sdnotify.Watchdog({**env, "WATCHDOG_USEC": "2000000",
                              "WATCHDOG_PID": str(os.getpid())})
    assert mine.enabled
