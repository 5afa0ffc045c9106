"""A journal writer for the crash test: appends events forever and prints one line per
event *after* ``append`` returned (the moment the UI would show it to the players)."""

from __future__ import annotations

import json
import sys
import zlib

from companion.core.engine import Setup
from companion.session.journal import Journal


def main(path: str, seed: int) -> None:
    journal = Journal.open(path)
    info = journal.last_unfinished()
    sid = info.id if info else journal.create_session("race", Setup.of("Alice", "Bob"))
    n = 0
    while True:
        n += 1
        # Payloads of varied sizes (up to ~40 KB) so some writes span many pages.
        pad = "x" * (zlib.crc32(f"{seed}-{n}".encode()) % 40_000)
        payload = {"action": {"type": "roll", "args": {"dice": [n % 6 + 1, 1], "pad": pad}}}
        seq = journal.append(sid, "action", payload)
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        print(f"{sid} {seq} {zlib.crc32(text.encode())}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
