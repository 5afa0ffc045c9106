"""The code stays lint-clean (ruff, configured in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is missing: it comes with the dev extra (./setup.sh test installs it)"
    proc = subprocess.run(
        [ruff, "check", "--no-cache", "companion", "tests", "tools"], cwd=ROOT, capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
