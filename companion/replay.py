"""Headless replay of a JSON-lines event file through the real referee (docs/events.md).

The file's first line sets the table; every following line is an action, an undo or a redo,
exactly as the journal stores them. Replays go through ``Referee.submit`` with an
in-memory journal, so a replay is accepted or rejected exactly as at the table.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .core.actions import Action
from .core.engine import Setup
from .core.errors import CompanionError, InvalidAction
from .games.registry import Registry
from .session.journal import Journal
from .session.referee import Intent, Referee, Rejected

LINE_TYPES = ("setup", "action", "undo", "redo")


class ReplayError(CompanionError):
    """A line of the event file is malformed or was rejected by the referee."""


def _parse(lineno: int, text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"line {lineno}: not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict) or data.get("type") not in LINE_TYPES:
        raise ReplayError(
            f"line {lineno}: expected an object whose type is one of {', '.join(LINE_TYPES)}, "
            f"got {text.strip()[:80]}"
        )
    return data


def replay_lines(game_id: str, lines: Iterable[str], registry: Registry) -> dict[str, Any]:
    """Apply the lines and return the referee's public view of the resulting state."""
    engine = registry.get(game_id)
    journal = Journal.open(":memory:")
    referee = Referee(journal, registry)
    started = False
    try:
        for lineno, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            data = _parse(lineno, text)
            kind = data["type"]
            if kind == "setup":
                if started:
                    raise ReplayError(f"line {lineno}: a second setup line; one game per file")
                try:
                    setup = Setup.from_json({k: v for k, v in data.items() if k != "type"})
                except CompanionError as exc:
                    raise ReplayError(f"line {lineno}: bad setup: {exc}") from None
                verdict = referee.start(engine.id, setup)
                started = True
            elif not started:
                raise ReplayError(f"line {lineno}: the file must start with a setup line")
            elif kind == "action":
                try:
                    action = Action.from_json(data.get("action"))
                except InvalidAction as exc:
                    raise ReplayError(f"line {lineno}: {exc}") from None
                verdict = referee.submit(Intent("action", action, source="replay"))
            else:
                verdict = referee.submit(Intent(kind, source="replay"))
            if isinstance(verdict, Rejected):
                code = verdict.code.value
                raise ReplayError(f"line {lineno}: rejected ({code}): {verdict.message}")
        if not started:
            raise ReplayError("the file is empty: it must start with a setup line")
        return referee.view()
    finally:
        journal.close()
