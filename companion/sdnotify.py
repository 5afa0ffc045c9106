"""A tiny sd_notify: tell systemd we are ready, alive (watchdog) and stopping.

No dependency: one datagram on the unix socket named by ``$NOTIFY_SOCKET`` (an abstract
socket when it starts with ``@``). Every function is a no-op returning False when the
variable is unset (a laptop, a terminal, the tests), and never raises: a lost notification
must not take the companion down.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping


def _address(name: str) -> str | bytes:
    if name.startswith("@"):
        return b"\0" + name[1:].encode()
    return name


def notify(message: str, env: Mapping[str, str] = os.environ) -> bool:
    """Send ``message`` (e.g. ``"READY=1"``); True when it was delivered to a socket."""
    name = env.get("NOTIFY_SOCKET")
    if not name:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(_address(name))
            sock.sendall(message.encode())
        return True
    except OSError:
        return False


def ready(env: Mapping[str, str] = os.environ) -> bool:
    return notify("READY=1", env)


def stopping(env: Mapping[str, str] = os.environ) -> bool:
    return notify("STOPPING=1", env)


def watchdog(env: Mapping[str, str] = os.environ) -> bool:
    return notify("WATCHDOG=1", env)


def status(text: str, env: Mapping[str, str] = os.environ) -> bool:
    return notify("STATUS=" + text.replace("\n", " "), env)


def watchdog_interval(env: Mapping[str, str] = os.environ) -> float | None:
    """Seconds systemd allows between pings (``WatchdogSec=``), or None when unwatched.

    Honours ``$WATCHDOG_PID``: when set for another process, the watchdog is not ours.
    """
    usec = env.get("WATCHDOG_USEC")
    if not usec or not env.get("NOTIFY_SOCKET"):
        return None
    pid = env.get("WATCHDOG_PID")
    if pid and pid.isdigit() and int(pid) != os.getpid():
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 1_000_000 if value > 0 else None


class Watchdog:
    """Call ``kick()`` every frame; it pings systemd at most once per half interval."""

    def __init__(
        self,
        env: Mapping[str, str] = os.environ,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._env = env
        self._clock = clock
        interval = watchdog_interval(env)
        self.period = None if interval is None else interval / 2
        self._last: float | None = None
        self.sent = 0

    @property
    def enabled(self) -> bool:
        return self.period is not None

    def kick(self) -> bool:
        """Ping if due; True when a ping was sent."""
        if self.period is None:
            return False
        now = self._clock()
        if self._last is not None and now - self._last < self.period:
            return False
        self._last = now
        if watchdog(self._env):
            self.sent += 1
            return True
        return False
