"""Le Docte Rat's screens: the table setup (setup.py) and the game itself (play.py).

``open_scene`` is what the home screen (and Resume) calls: the play screen when a game of
Le Docte Rat is live and unfinished, otherwise the table setup. Nothing heavy is imported
here at module import time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...context import AppContext
    from ..base import Scene

GAME_ID = "docte-rat"


def live_game(ctx: AppContext) -> bool:
    """True when the referee holds an unfinished session of Le Docte Rat."""
    referee = ctx.referee
    if referee.session_id is None:
        return False
    view = referee.view()
    return view.get("game") == GAME_ID and not view.get("is_over", False)


def open_scene(ctx: AppContext) -> Scene:
    """The play screen for a live game of Le Docte Rat, else the table setup."""
    if live_game(ctx):
        from .play import PlayScene

        return PlayScene(ctx)
    from .setup import SetupScene

    return SetupScene(ctx)
