"""Whole games replay exactly as recorded (regenerate: see golden/__init__.py)."""

from __future__ import annotations

import json

import pytest

from tests.games.docte_rat.golden import HERE, play

FILES = sorted(HERE.glob("*.jsonl"))


def test_there_are_golden_games() -> None:
    assert len(FILES) >= 4


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_whole_game_replays_exactly_as_recorded(path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    got = json.loads(json.dumps(play(path.read_text(encoding="utf-8").splitlines())))
    assert got["trace"] == expected["trace"]
    assert got["final"] == expected["final"]
    assert got["final"]["is_over"], "a golden game is played to the end"
