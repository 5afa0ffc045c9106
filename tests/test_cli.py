"""The command line: replay prints the public state; bad input is one line, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.registry import Registry
from tests.toygame import RaceGame

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[1]


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv), registry=Registry((RaceGame(),)))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_prints_the_public_state_as_json(capsys) -> None:
    code, out, err = run_cli(capsys, "replay", "race", str(DATA / "race-double.jsonl"))
    assert code == 0, err
    state = json.loads(out)
    assert state["state_id"] == 5
    assert [s["position"] for s in state["view"]["seats"]] == [8, 3]
    assert state["current_player"] == 0 and state["can_redo"] is False


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"type": "action", "action": {"type": "roll"}}'], "line 1: the file must start"),
        (["{not json"], "line 1: not valid JSON"),
        (
            ['{"type": "setup", "seats": [{"name": "A"}]}', '{"type": "teleport"}'],
            "line 2: expected an object",
        ),
        (['{"type": "setup", "seats": []}'], "line 1: rejected (invalid): Race to the Goal is"),
        (
            [
                '{"type": "setup", "seats": [{"name": "A"}]}',
                '{"type": "action", "action": {"type": "roll", "args": {"dice": [7, 1]}}}',
            ],
            "line 2: rejected (invalid): a die shows 1 to 6, got 7",
        ),
        (['{"type": "setup", "seats": [{"name": ""}]}'], "line 1: bad setup: a seat needs a name"),
        ([], "the file is empty"),
    ],
)
def test_a_bad_event_file_gets_one_line_naming_the_line(
    capsys, tmp_path: Path, lines: list[str], message: str
) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "replay", "race", str(path))
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and err.startswith("companion: ")
    assert message in err


def test_unknown_game_and_missing_file_are_explained(capsys, tmp_path: Path) -> None:
    code, _, err = run_cli(capsys, "replay", "chess", str(DATA / "race-double.jsonl"))
    assert code == 2 and "unknown game 'chess'; available games: race" in err
    code, _, err = run_cli(capsys, "replay", "race", str(tmp_path / "nope.jsonl"))
    assert code == 2 and "cannot read" in err and "nope.jsonl" in err


def test_the_installed_command_answers_without_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "replay", "docte-rat", "/nonexistent.jsonl"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("companion: ")


def test_replay_of_a_whole_docte_rat_game_prints_the_winner() -> None:
    golden = ROOT / "tests/games/docte_rat/golden/two-players-full-game.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "replay", "docte-rat", str(golden)],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    state = json.loads(proc.stdout)
    assert state["is_over"] and state["outcome"]["reason"] == "Alice is Docte Rat"
    alice = state["view"]["seats"][0]
    assert alice["track"] == "university" and alice["bulletin"] >= 75


def test_an_engine_bug_during_replay_is_one_line_without_a_traceback(capsys, tmp_path) -> None:
    class Buggy(RaceGame):
        def _apply(self, state, action):
            raise KeyError("oops")

    lines = ['{"type": "setup", "seats": [{"name": "A"}]}',
             '{"type": "action", "action": {"type": "roll", "args": {"dice": [1, 2]}}}']
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["replay", "race", str(path)], registry=Registry((Buggy(),)))
    out, err = capsys.readouterr()
    assert code == 2 and "rejected (internal)" in err
    assert "Traceback" not in err and "KeyError" not in err.split("rejected")[0]
