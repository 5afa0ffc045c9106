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


@pytest.mark.slow
def test_after_a_power_cut_the_table_comes_back_in_the_unfinished_game(tmp_path: Path) -> None:
    """A game was being played when the power went: the next start goes straight back into
    it, at the same move, without anyone tapping Resume."""
    from companion.core.actions import Action
    from companion.core.engine import Setup
    from companion.games.registry import default_registry
    from companion.session.journal import Journal
    from companion.session.referee import Accepted, Intent, Referee

    second_run(tmp_path)
    state = tmp_path / "state"
    state.mkdir()
    journal = Journal.open(state / "journal.sqlite3")
    registry = default_registry()
    referee = Referee(journal, registry)
    engine = registry.get("docte-rat")
    started = referee.start("docte-rat", engine.prepare_setup(
        Setup.of("Alice", "Bob", goals=[5, 5, 5], first=0)))
    assert isinstance(started, Accepted)
    rolled = referee.submit(Intent("action", Action("roll", {"dice": [2, 3]}, 0)))
    assert isinstance(rolled, Accepted), rolled
    moves = referee.state_id
    journal.close()  # nothing is closed properly after a power cut; the journal is the same

    shots = tmp_path / "shots"
    proc = companion(tmp_path, "run", "--demo", "--exit-after", "3", "--screenshots", str(shots))
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in shots.glob("*.png"))
    assert names and "docte-rat-play" in names[0], names
    assert not any("home" in n for n in names), names
    again = Journal.open(state / "journal.sqlite3")
    try:
        info = again.last_unfinished()
        assert info is not None and info.game == "docte-rat"
        replay = Referee(again, registry)
        assert isinstance(replay.resume(info.id), Accepted)
        assert replay.state_id == moves
    finally:
        again.close()
