"""Kill a journal writer with SIGKILL at random moments, many times over the same file:
every event the writer acknowledged survives, and no event is half-written."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from companion.session.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
KILLS = 40


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_sigkill_at_random_points_loses_no_acknowledged_event(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    path = tmp_path / "journal.sqlite3"
    acknowledged: dict[tuple[int, int], int] = {}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for attempt in range(KILLS):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.session.crash_writer", str(path), str(attempt)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        time.sleep(rng.uniform(0.15, 0.6))  # start-up takes ~0.1 s: kill mid-stream
        proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == -signal.SIGKILL, err
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3:  # a line cut by the kill was never acknowledged
                acknowledged[(int(parts[0]), int(parts[1]))] = int(parts[2])

    assert len(acknowledged) > KILLS, "the writer never got going; the test proved nothing"
    with Journal.open(path) as journal:
        sessions = {s.id for s in journal.sessions()}
        stored = {}
        for sid in sessions:
            for ev in journal.events(sid):  # raises on any damaged or half-written row
                text = json.dumps(ev.payload, sort_keys=True, separators=(",", ":"))
                stored[(sid, ev.seq)] = zlib.crc32(text.encode())
    missing = {k for k in acknowledged if k not in stored}
    assert not missing, f"acknowledged events lost: {sorted(missing)[:5]}"
    assert all(stored[k] == crc for k, crc in acknowledged.items())
    assert len(sessions) == 1, "every restart must resume the same unfinished session"
