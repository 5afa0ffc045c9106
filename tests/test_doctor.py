"""`companion doctor`: one line per check, a fix for every FAIL, exit 1 on any FAIL."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.config import Config, load_config
from companion.doctor import check_numeric, run_doctor


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


def make_config(tmp_path: Path, camera: str = "synthetic") -> Config:
    path = tmp_path / "config.toml"
    path.write_text(f'[devices]\nbuttons = "simulated"\ncamera = "{camera}"\n', encoding="utf-8")
    return load_config(env={"COMPANION_CONFIG": str(path),
                            "COMPANION_STATE_DIR": str(tmp_path / "state")})


def doctor(config: Config | Path | None) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = run_doctor(config, out=out)
    return code, out.getvalue().splitlines()


def line(lines: list[str], name: str) -> str:
    found = [entry for entry in lines if entry[5:].startswith(name + ":")]
    assert found, f"no {name} line in:\n" + "\n".join(lines)
    return found[0]


def test_a_working_simulated_setup_is_all_ok(tmp_path: Path) -> None:
    code, lines = doctor(make_config(tmp_path))
    assert code == 0, "\n".join(lines)
    assert all(entry[:5] in ("OK   ", "WARN ") for entry in lines), lines
    assert line(lines, "camera").startswith("OK   camera: synthetic")
    assert "640x480" in line(lines, "camera")
    assert line(lines, "buttons").startswith("OK   buttons: simulated")
    assert "yes=GPIO17" in line(lines, "buttons")
    assert line(lines, "journal").startswith("OK   journal:")
    assert line(lines, "python").startswith("OK   python: 3.")
    assert "dummy" in line(lines, "display")
    for name in ("config", "state dir", "buzzer", "numpy", "opencv"):
        line(lines, name)


def test_an_unknown_camera_source_fails_with_the_fix(tmp_path: Path) -> None:
    code, lines = doctor(make_config(tmp_path, camera="no-such-camera"))
    assert code == 1
    camera = line(lines, "camera")
    assert camera.startswith("FAIL camera: ")
    assert "no-such-camera" in camera and " — fix: " in camera
    assert "devices.camera" in camera.split(" — fix: ")[1]
    # the other checks still ran
    assert line(lines, "buttons").startswith("OK")


def test_a_damaged_journal_fails_naming_the_problem(tmp_path: Path) -> None:
    config = make_config(tmp_path)
    config.state_dir.mkdir(parents=True)
    config.journal_path.write_bytes(b"this is not a database, just garbage " * 200)
    code, lines = doctor(config)
    assert code == 1
    journal = line(lines, "journal")
    assert journal.startswith("FAIL journal: journal.sqlite3")
    assert "not a readable journal" in journal and "mv " in journal
    # the doctor never rewrites the damaged file
    assert config.journal_path.read_bytes().startswith(b"this is not a database")


def test_a_broken_config_file_is_a_fail_line_and_the_rest_still_runs(tmp_path: Path,
                                                                     monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("COMPANION_CAMERA", "synthetic")
    path = tmp_path / "config.toml"
    path.write_text("[display]\nrotation = 90\n", encoding="utf-8")
    code, lines = doctor(path)
    assert code == 1
    assert line(lines, "config").startswith(f"FAIL config: {path}: display.rotation = 90")
    assert line(lines, "camera").startswith("OK")


def test_pip_numpy_on_a_pi_is_a_warning_with_the_fix() -> None:
    checks = list(check_numeric(on_pi=True))
    numpy = next(c for c in checks if c.name == "numpy")
    assert numpy.status == "WARN"  # this venv's numpy comes from pip
    assert "pip uninstall numpy" in numpy.line()
    assert next(c for c in check_numeric(on_pi=False) if c.name == "numpy").status == "OK"
