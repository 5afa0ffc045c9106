"""The rules core stays pure: core/ and games/ import no device, display, clock or randomness."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import companion

FORBIDDEN = {"pygame", "cv2", "gpiozero", "picamera2", "sqlite3", "time", "random", "numpy"}
ROOT = Path(companion.__file__).parent
PURE = [ROOT / "core", ROOT / "games"]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            found.add("__import__")  # dynamic imports hide what they load
    return found


def test_pure_packages_import_nothing_impure() -> None:
    files = [p for folder in PURE for p in folder.rglob("*.py")]
    assert files, "no source found under core/ and games/"
    offenders = {
        str(p.relative_to(ROOT.parent)): sorted(imported_modules(p) & (FORBIDDEN | {"__import__"}))
        for p in files
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_importing_every_game_pulls_in_no_impure_module() -> None:
    code = (
        "import sys, pkgutil, importlib, companion.core, companion.games\n"
        "for pkg in (companion.core, companion.games):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        f"print(sorted(set(sys.modules) & set({sorted(FORBIDDEN - {'time'})!r})))\n"
    )
    # `time` is imported by the interpreter itself at start-up, so the static check covers it.
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT.parent,
    ).stdout.strip()
    assert out == "[]"


def test_the_checker_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import random\nfrom time import monotonic\nimport json\n")
    assert imported_modules(bad) & FORBIDDEN == {"random", "time"}
