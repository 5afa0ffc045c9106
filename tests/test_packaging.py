"""Assets are found through importlib.resources from a checkout and from an installed wheel."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from companion.resources import asset, assets

ROOT = Path(__file__).resolve().parents[1]


def test_assets_are_found_from_the_checkout() -> None:
    assert asset("README.md").read_text(encoding="utf-8").startswith("Fonts, sounds")
    assert Path(str(assets())).resolve() == (ROOT / "assets").resolve()


@pytest.mark.slow
def test_an_installed_wheel_carries_its_assets_and_the_command(tmp_path: Path) -> None:
    wheels, target, src = tmp_path / "wheels", tmp_path / "site", tmp_path / "src"
    # Build from a copy so the checkout gets no build/ folder; keep the assets symlink.
    skip = shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__", ".*cache")
    shutil.copytree(ROOT, src, symlinks=True, ignore=skip)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "-w", str(wheels), str(src)], check=True, cwd=tmp_path
    )
    [wheel] = wheels.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "companion/assets/README.md" in names
    assert any(n.startswith("table_companion") and n.endswith("entry_points.txt") for n in names)
    entry = (
        zipfile.ZipFile(wheel)
        .read(next(n for n in names if n.endswith("entry_points.txt")))
        .decode()
    )
    assert "companion = companion.cli:main" in entry
    subprocess.run(
        [*pip, "install", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        cwd=tmp_path,
    )
    probe = (
        "import companion, companion.resources as r;"
        "print(companion.__file__); print(r.asset('README.md'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(target)},
    ).stdout.splitlines()
    assert out[0].startswith(str(target)) and out[1].startswith(str(target))
    assert not Path(out[1]).is_symlink()
