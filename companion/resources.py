"""Find shipped data files (the top-level assets/ folder) through importlib.resources.

In a wheel, assets/ is installed as the package ``companion.assets``. In a source checkout
where Python imports ``companion`` straight from the work tree (tests, ``python -m``), that
package name does not exist, so we fall back to the assets/ folder beside ``companion/``.
"""

from __future__ import annotations

import importlib.resources
from importlib.abc import Traversable

from .core.errors import CompanionError


def assets() -> Traversable:
    try:
        return importlib.resources.files("companion.assets")
    except ModuleNotFoundError:
        root = importlib.resources.files("companion").joinpath("..", "assets")
        if not root.is_dir():
            raise CompanionError(
                "the assets folder is missing; reinstall Table Companion (./setup.sh run)"
            ) from None
        return root


def asset(*parts: str) -> Traversable:
    """One asset file, e.g. ``asset("fonts", "DejaVuSans.ttf")``."""
    path = assets().joinpath(*parts)
    if not path.is_file():
        raise CompanionError(f"asset {'/'.join(parts)} is missing; reinstall Table Companion")
    return path
