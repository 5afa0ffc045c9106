"""Find shipped data files (the top-level assets/ folder) through importlib.resources.

assets/ is reached as the package ``companion.assets``: in a checkout through the symlink
``companion/assets -> ../assets``, in an installed wheel as real files.
"""

from __future__ import annotations

import importlib.resources
from importlib.abc import Traversable

from .core.errors import CompanionError


def assets() -> Traversable:
    try:
        root = importlib.resources.files("companion.assets")
    except ModuleNotFoundError:
        root = None
    if root is None or not root.is_dir():
        raise CompanionError(
            "the assets folder is missing (companion/assets); reinstall Table Companion "
            "with ./setup.sh run"
        )
    return root


def asset(*parts: str) -> Traversable:
    """One asset file, e.g. ``asset("fonts", "DejaVuSans.ttf")``."""
    path = assets().joinpath(*parts)
    if not path.is_file():
        raise CompanionError(f"asset {'/'.join(parts)} is missing; reinstall Table Companion")
    return path
