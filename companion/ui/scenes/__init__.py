"""One scene per screen. Each game issue registers its own scene factory here:

    GAME_SCENES["docte-rat"] = lambda ctx: DocteRatScene(ctx)

The home screen opens (and Resume returns to) the registered scene of a game; a game
without a scene yet gets a clear message instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..context import AppContext
    from .base import Scene

GAME_SCENES: dict[str, Callable[[AppContext], Scene]] = {}


def _docte_rat(ctx: AppContext) -> Scene:  # lazy: the screens load when the tile is tapped
    from .docte_rat import open_scene

    return open_scene(ctx)


GAME_SCENES["docte-rat"] = _docte_rat
