"""`companion run` as a real process: the demo starts, draws, saves screenshots and exits
cleanly; start-up problems are one line on stderr and exit code 2, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.config import default_text

ROOT = Path(__file__).resolve().parent.parent


def companion(tmp_path: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "COMPANION_CONFIG": str(tmp_path / "config.toml"),
        "COMPANION_STATE_DIR": str(tmp_path / "state"),
    }
    for var in ("COMPANION_CAMERA", "COMPANION_BUTTONS", "COMPANION_BUZZER", "NOTIFY_SOCKET",
                "COMPANION_DEBUG"):
        env.pop(var, None)
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout,
    )


@pytest.mark.slow
def test_the_demo_runs_saves_screenshots_and_exits_cleanly(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    proc = companion(tmp_path, "run", "--demo", "--exit-after", "3", "--screenshots", str(shots))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    pngs = sorted(p.name for p in shots.glob("*.png"))
    assert pngs and pngs[0] == "001-home.png"
    assert (tmp_path / "config.toml").is_file()  # first run wrote the defaults
    assert (tmp_path / "state" / "journal.sqlite3").is_file()


def error_lines(proc: subprocess.CompletedProcess) -> list[str]:
    return [line for line in proc.stderr.splitlines() if line.strip()]


def second_run(tmp_path: Path) -> None:
    """Write the config file first, as an earlier run would have (the first run also logs
    where it wrote the defaults)."""
    (tmp_path / "config.toml").write_text(default_text(), encoding="utf-8")


def test_an_unknown_camera_source_is_one_line_and_exit_2(tmp_path: Path) -> None:
    second_run(tmp_path)
    proc = companion(tmp_path, "run", "--demo", "--camera", "no-such-camera", "--exit-after", "1")
    assert proc.returncode == 2, proc.stderr
    lines = error_lines(proc)
    assert len(lines) == 1 and lines[0].startswith("companion: ")
    assert 'unknown camera source "no-such-camera"' in lines[0]
    assert "Traceback" not in proc.stderr


def test_a_damaged_journal_is_one_line_and_exit_2_and_the_file_is_kept(tmp_path: Path) -> None:
    journal = tmp_path / "state" / "journal.sqlite3"
    journal.parent.mkdir(parents=True)
    garbage = b"garbage, not a journal " * 100
    journal.write_bytes(garbage)
    second_run(tmp_path)
    proc = companion(tmp_path, "run", "--demo", "--exit-after", "1")
    assert proc.returncode == 2, proc.stderr
    lines = error_lines(proc)
    assert len(lines) == 1 and lines[0].startswith("companion: journal.sqlite3")
    assert "Traceback" not in proc.stderr
    assert journal.read_bytes() == garbage


def test_a_bad_config_value_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("[display]\nrotation = 90\n", encoding="utf-8")
    proc = companion(tmp_path, "run", "--demo", "--exit-after", "1")
    assert proc.returncode == 2
    assert error_lines(proc) == [
        f"companion: {tmp_path / 'config.toml'}: display.rotation = 90 is not allowed; "
        "write 0 or 180"
    ]
