"""Golden playthroughs of whole Le Docte Rat games.

Each ``*.jsonl`` file is a replay file (docs/events.md) of a complete game; its
``*.expected.json`` holds the final public state and a one-line trace per event (phase,
whose turn, every pawn's track and Bulletin). ``play`` is what both the test and the
regenerate script run, through the real referee.

Regenerate after an intended rules change, then read the diff:

    .venv/bin/python -m tests.games.docte_rat.golden.regenerate
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.core.actions import Action
from companion.core.engine import Setup
from companion.games.registry import default_registry
from companion.session.journal import Journal
from companion.session.referee import Intent, Referee, Rejected

HERE = Path(__file__).parent
GAME = "docte-rat"


def trace_line(lineno: int, view: dict[str, Any]) -> str:
    seats = view["view"]["seats"]
    pawns = " ".join(
        f"{s['name']}:{s['track'][0]}{s['position']}/{s['bulletin']}" for s in seats
    )
    return f"{lineno:4d} {view['phase']:<14} turn={view['view']['current']} {pawns}"


def play(lines: list[str]) -> dict[str, Any]:
    """Replay a golden file through the referee; return the final view and the trace."""
    registry = default_registry()
    trace = []
    with Journal.open(":memory:") as journal:
        referee = Referee(journal, registry)
        for lineno, text in enumerate(lines, start=1):
            data = json.loads(text)
            if data["type"] == "setup":
                verdict = referee.start(GAME, Setup.from_json(
                    {k: v for k, v in data.items() if k != "type"}))
            elif data["type"] == "action":
                verdict = referee.submit(Intent("action", Action.from_json(data["action"])))
            else:
                verdict = referee.submit(Intent(data["type"]))
            if isinstance(verdict, Rejected):
                raise AssertionError(f"line {lineno} rejected: {verdict.message}")
            trace.append(trace_line(lineno, referee.view()))
        return {"final": referee.view(), "trace": trace}
