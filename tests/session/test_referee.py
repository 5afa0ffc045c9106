"""The referee: the one door. Undo/redo are events, stale intents are dropped, engine
failures never escape, and a rejected action leaves the journal as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.actions import Action, roll_action
from companion.core.engine import Setup
from companion.games.registry import Registry
from companion.session.journal import Journal
from companion.session.referee import Accepted, Intent, Referee, RejectCode, Rejected
from tests.toygame import Phase, RaceGame


@pytest.fixture
def journal(tmp_path: Path):
    with Journal.open(tmp_path / "journal.sqlite3") as j:
        yield j


@pytest.fixture
def referee(journal: Journal) -> Referee:
    ref = Referee(journal, Registry((RaceGame(),)))
    assert isinstance(ref.start("race", Setup.of("Alice", "Bob")), Accepted)
    return ref


def act(ref: Referee, action: Action, state_id: int | None = -1):
    sid = ref.state_id if state_id == -1 else state_id
    return ref.submit(Intent("action", action, sid))


def test_an_accepted_roll_moves_the_pawn_and_bumps_the_state_id(referee: Referee) -> None:
    verdict = act(referee, roll_action((2, 3), 0))
    assert verdict == Accepted(1, "Alice rolled 2 + 3")
    assert referee.view()["view"]["seats"][0]["position"] == 5
    assert referee.view()["current_player"] == 1


def test_a_double_tap_is_dropped_as_stale(referee: Referee, journal: Journal) -> None:
    seen = referee.state_id
    assert isinstance(act(referee, roll_action((2, 3), 0), seen), Accepted)
    second = act(referee, roll_action((2, 3), 0), seen)  # same screen, pressed again
    assert isinstance(second, Rejected) and second.code is RejectCode.STALE
    assert len(journal.events(referee.session_id)) == 1
    assert referee.view()["view"]["seats"][0]["position"] == 5


def test_a_bouncing_undo_button_undoes_once(referee: Referee) -> None:
    act(referee, roll_action((2, 3), 0))
    act(referee, roll_action((1, 2), 1))
    seen = referee.state_id
    results = [referee.submit(Intent("undo", state_id=seen, source="gpio")) for _ in range(3)]
    assert [type(r) for r in results] == [Accepted, Rejected, Rejected]
    assert referee.view()["view"]["seats"][1]["position"] == 0
    assert referee.view()["view"]["seats"][0]["position"] == 5


def test_undo_then_redo_restores_and_both_are_journaled(referee: Referee, journal: Journal) -> None:
    act(referee, roll_action((4, 4), 0))
    assert referee.view()["phase"] == "CHOOSE"
    act(referee, Action("advance", player=0))
    after = referee.state
    assert referee.submit(Intent("undo")).description.startswith("Undone: Alice chose to advance")
    assert referee.view()["phase"] == "CHOOSE" and referee.can_redo
    assert isinstance(referee.submit(Intent("redo")), Accepted)
    assert referee.state == after
    assert [e.type for e in journal.events(referee.session_id)] == [
        "action",
        "action",
        "undo",
        "redo",
    ]


def test_a_new_action_after_undo_clears_redo(referee: Referee) -> None:
    act(referee, roll_action((1, 2), 0))
    referee.submit(Intent("undo"))
    act(referee, roll_action((5, 6), 0))
    verdict = referee.submit(Intent("redo"))
    assert isinstance(verdict, Rejected) and verdict.code is RejectCode.NOTHING_TO_REDO
    assert referee.view()["view"]["seats"][0]["position"] == 11


def test_nothing_to_undo_at_the_start(referee: Referee) -> None:
    verdict = referee.submit(Intent("undo"))
    assert verdict == Rejected(RejectCode.NOTHING_TO_UNDO, "Nothing to undo")


@pytest.mark.parametrize(
    ("action", "code", "words"),
    [
        (Action("advance", player=0), RejectCode.ILLEGAL, "expected roll"),
        (roll_action((7, 1), 0), RejectCode.INVALID, "a die shows 1 to 6, got 7"),
        (roll_action((1,), 0), RejectCode.INVALID, "expected 2 dice"),
        (roll_action((1, 2), 1), RejectCode.ILLEGAL, "seat 0's turn"),
        (Action("fly", player=0), RejectCode.ILLEGAL, "Can't fly during ROLL"),
    ],
)
def test_bad_input_is_rejected_with_what_was_expected_and_nothing_journaled(
    referee: Referee, journal: Journal, action: Action, code: RejectCode, words: str
) -> None:
    before = referee.state
    verdict = act(referee, action)
    assert isinstance(verdict, Rejected) and verdict.code is code
    assert words in verdict.message
    assert referee.state == before and referee.state_id == 0
    assert journal.events(referee.session_id) == []


def test_an_engine_bug_never_reaches_the_screen(journal: Journal) -> None:
    class Buggy(RaceGame):
        def _apply(self, state, action):
            raise ZeroDivisionError("oops")

    ref = Referee(journal, Registry((Buggy(),)))
    ref.start("race", Setup.of("Alice"))
    verdict = act(ref, roll_action((1, 2), 0))
    assert isinstance(verdict, Rejected) and verdict.code is RejectCode.INTERNAL
    assert "nothing was recorded" in verdict.message
    assert journal.events(ref.session_id) == []


def test_the_end_of_the_game_is_recorded_and_undo_reopens_it(
    referee: Referee, journal: Journal
) -> None:
    act(referee, roll_action((6, 5), 0))  # Alice 11
    act(referee, roll_action((1, 2), 1))  # Bob 3
    act(referee, roll_action((6, 5), 0))  # Alice 22 >= 20: wins at once
    assert referee.view()["is_over"] and referee.view()["outcome"]["winners"] == [0]
    assert journal.session(referee.session_id).status == "finished"
    late = act(referee, roll_action((1, 2), 1))
    assert isinstance(late, Rejected) and late.code is RejectCode.GAME_OVER
    referee.submit(Intent("undo"))
    assert journal.session(referee.session_id).status == "playing"
    assert journal.last_unfinished().id == referee.session_id


def test_no_session_and_unknown_game_are_clear(journal: Journal) -> None:
    ref = Referee(journal, Registry((RaceGame(),)))
    assert act(ref, roll_action((1, 2))).code is RejectCode.NO_SESSION
    verdict = ref.start("chess", Setup.of("Alice"))
    assert verdict.code is RejectCode.INVALID and "unknown game 'chess'" in verdict.message
    sid = journal.create_session("chess", Setup.of("Alice"))
    verdict = ref.resume(sid)
    assert verdict.code is RejectCode.UNKNOWN_GAME and "race" in verdict.message


def test_restart_resumes_exactly_where_the_table_was(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as j:
        ref = Referee(j, Registry((RaceGame(),)))
        ref.start("race", Setup.of("Alice", "Bob"))
        act(ref, roll_action((3, 3), 0))
        act(ref, Action("stay", player=0))
        act(ref, roll_action((2, 5), 1))
        ref.submit(Intent("undo"))
        expected, expected_id = ref.state, ref.state_id
    with Journal.open(path) as j:
        info = j.last_unfinished()
        ref = Referee(j, Registry((RaceGame(),)))
        assert isinstance(ref.resume(info.id), Accepted)
        assert ref.state == expected and ref.state_id == expected_id == 4
        assert ref.state.phase is Phase.ROLL and ref.can_redo
        assert isinstance(ref.submit(Intent("redo", state_id=4)), Accepted)
        assert ref.view()["view"]["seats"][1]["position"] == 7
