"""Hypothesis: whatever the table does (actions, undo, redo, double taps, power cuts),
the live state equals the fold of the journal and equals a plain model of the game."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from companion.core.engine import Setup
from companion.games.registry import Registry
from companion.session.journal import Journal
from companion.session.referee import Accepted, Intent, Referee, RejectCode, Rejected
from tests.toygame import RaceGame

GAME = RaceGame()
SETUP = Setup.of("Alice", "Bob", "Chloé", goal=40)


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.TemporaryDirectory()
        self.path = Path(self.dir.name) / "journal.sqlite3"
        self.journal = Journal.open(self.path)
        self.referee = Referee(self.journal, Registry((GAME,)))
        self.referee.start("race", SETUP)
        self.sid = self.referee.session_id
        self.done: list = []  # the model: actions in effect, and the redo stack
        self.undone: list = []

    def model_state(self):
        state = GAME.new_state(SETUP)
        for action in self.done:
            state = GAME.apply(state, action)
        return state

    @precondition(lambda self: not GAME.is_over(self.referee.state))
    @rule(pick=st.integers(min_value=0, max_value=10_000))
    def play_a_legal_action(self, pick: int) -> None:
        legal = GAME.legal_actions(self.referee.state)
        action = legal[pick % len(legal)]
        before = self.referee.state_id
        verdict = self.referee.submit(Intent("action", action, before))
        assert verdict == Accepted(before + 1, verdict.description)
        self.done.append(action)
        self.undone.clear()

    @rule()
    def undo(self) -> None:
        verdict = self.referee.submit(Intent("undo", state_id=self.referee.state_id))
        if self.done:
            assert isinstance(verdict, Accepted)
            self.undone.append(self.done.pop())
        else:
            assert verdict.code is RejectCode.NOTHING_TO_UNDO

    @rule()
    def redo(self) -> None:
        verdict = self.referee.submit(Intent("redo", state_id=self.referee.state_id))
        if self.undone:
            assert isinstance(verdict, Accepted)
            self.done.append(self.undone.pop())
        else:
            assert verdict.code is RejectCode.NOTHING_TO_REDO

    @precondition(lambda self: self.referee.state_id > 0)
    @rule(kind=st.sampled_from(["action", "undo", "redo"]), back=st.integers(1, 5))
    def stale_intent_is_dropped(self, kind: str, back: int) -> None:
        old = max(0, self.referee.state_id - back)
        action = GAME.legal_actions(self.referee.state)[:1] or [None]
        verdict = self.referee.submit(Intent(kind, action[0], old))
        assert isinstance(verdict, Rejected) and verdict.code is RejectCode.STALE

    @rule()
    def power_cut_and_restart(self) -> None:
        self.journal.close()
        self.journal = Journal.open(self.path)
        self.referee = Referee(self.journal, Registry((GAME,)))
        assert (
            self.journal.last_unfinished() is None or self.journal.last_unfinished().id == self.sid
        )
        assert isinstance(self.referee.resume(self.sid), Accepted)

    @invariant()
    def live_state_equals_the_model(self) -> None:
        assert self.referee.state == self.model_state()
        assert self.referee.can_undo == bool(self.done)
        assert self.referee.can_redo == bool(self.undone)

    @invariant()
    def journal_fold_equals_live_state(self) -> None:
        replayed = Referee(self.journal, Registry((GAME,)))
        assert isinstance(replayed.resume(self.sid), Accepted)
        assert replayed.state == self.referee.state
        assert replayed.state_id == self.referee.state_id

    def teardown(self) -> None:
        self.journal.close()
        self.dir.cleanup()


TableMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)
test_table = TableMachine.TestCase
