"""Every registered game, plus the test-only game, passes the engine contract."""

from __future__ import annotations

import json

import pytest

from companion.core.engine import Engine, Setup
from companion.core.errors import IllegalAction, InvalidAction
from companion.games.registry import Registry, default_registry
from companion.session.journal import Journal
from companion.session.referee import Accepted, Intent, Referee
from tests.contract.contract import playout, replay
from tests.toygame import RaceGame

ENGINES: list[Engine] = [*default_registry().engines(), RaceGame()]
CASES = [
    pytest.param(engine, setup, id=f"{engine.id}-{len(setup.seats)}seats")
    for engine in ENGINES
    for setup in engine.example_setups()
]


@pytest.mark.parametrize(("engine", "setup"), CASES)
@pytest.mark.parametrize("seed", range(5))
def test_random_playouts_keep_the_contract(engine: Engine, setup: Setup, seed: int) -> None:
    final, history = playout(engine, setup, seed)
    assert replay(engine, setup, history) == final, "the same actions gave another state"


@pytest.mark.parametrize(("engine", "setup"), CASES)
def test_playout_through_the_journal_resumes_to_the_same_state(
    engine: Engine, setup: Setup, tmp_path
) -> None:
    final, history = playout(engine, setup, seed=99)
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        referee = Referee(journal, Registry((engine,)))
        assert isinstance(referee.start(engine.id, setup), Accepted)
        for action in history:
            verdict = referee.submit(Intent("action", action, referee.state_id))
            assert isinstance(verdict, Accepted), verdict
        assert referee.state == final
        sid = referee.session_id
        live_view = json.dumps(referee.view(), sort_keys=True)
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        again = Referee(journal, Registry((engine,)))
        assert isinstance(again.resume(sid), Accepted)
        assert again.state == final
        assert json.dumps(again.view(), sort_keys=True) == live_view


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.id)
def test_a_wrong_number_of_seats_is_refused_with_the_allowed_range(engine: Engine) -> None:
    too_many = Setup.of(*(f"P{i}" for i in range(engine.max_seats + 1)))
    with pytest.raises((InvalidAction, IllegalAction)) as err:
        engine.new_state(too_many)
    assert str(engine.max_seats) in str(err.value)
