"""The first screen at start-up. After a power cut (or any restart) with a game still
unfinished in the journal, the table goes straight back into that game, exactly where it
was; otherwise the home screen."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from . import GAME_SCENES

if TYPE_CHECKING:
    from ..context import AppContext
    from .base import Scene

log = logging.getLogger(__name__)


def first_scene(ctx: AppContext) -> Scene:
    from .home import HomeScene

    try:
        info = ctx.journal.last_unfinished()
    except Exception:
        log.exception("journal unreadable at start-up")
        info = None
    if info is not None and info.game in GAME_SCENES and info.game in ctx.registry.ids():
        from .resume import ResumeScene

        log.info("resuming unfinished session %s (%s)", info.id, info.game)
        return ResumeScene(ctx, info)
    return HomeScene(ctx)
