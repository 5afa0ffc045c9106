"""The contract every game engine must honour, as reusable checks.

``playout`` drives an engine through random legal actions and, at every step, checks the
protocol: JSON round trip of the state, a JSON-able public view, legal actions accepted,
illegal ones rejected with a message naming what was expected and leaving the state as it
was, determinism, and a coherent end (is_over <=> outcome, no legal actions once over).
"""

from __future__ import annotations

import enum
import json
import random
from typing import Any

import pytest

from companion.core.actions import Action
from companion.core.engine import Engine, Setup
from companion.core.errors import IllegalAction, InvalidAction

MAX_STEPS = 400


def roundtrip(engine: Engine[Any], state: Any) -> Any:
    data = json.loads(json.dumps(engine.state_to_json(state)))
    return engine.state_from_json(data)


def check_illegal(
    engine: Engine[Any], state: Any, known_types: set[str], rng: random.Random
) -> None:
    legal = engine.legal_actions(state)
    legal_types = {a.type for a in legal}
    before = json.dumps(engine.state_to_json(state), sort_keys=True)
    candidates = sorted((known_types | {"no_such_action"}) - legal_types)
    bad_type = rng.choice(candidates)
    player = engine.current_player(state)
    with pytest.raises((IllegalAction, InvalidAction)) as err:
        engine.apply(state, Action(bad_type, player=player))
    message = str(err.value)
    phase = engine.phase(state).name
    assert phase in message or any(t in message for t in legal_types) or engine.is_over(state), (
        f"rejection of {bad_type!r} in {phase} does not say what was expected: {message!r}"
    )
    assert json.dumps(engine.state_to_json(state), sort_keys=True) == before, "state mutated"


def playout(engine: Engine[Any], setup: Setup, seed: int) -> tuple[Any, list[Action]]:
    rng = random.Random(seed)
    state = engine.new_state(setup)
    history: list[Action] = []
    known_types: set[str] = set()
    for _ in range(MAX_STEPS):
        assert roundtrip(engine, state) == state, "state does not survive a JSON round trip"
        json.dumps(engine.public_view(state))
        assert isinstance(engine.phase(state), enum.Enum)
        current = engine.current_player(state)
        assert current is None or 0 <= current < len(setup.seats)
        legal = list(engine.legal_actions(state))
        known_types |= {a.type for a in legal}
        if engine.is_over(state):
            assert legal == [], "a finished game still offers actions"
            assert engine.outcome(state) is not None, "a finished game has no outcome"
            break
        assert engine.outcome(state) is None, "an unfinished game has an outcome"
        assert legal, f"no legal action in phase {engine.phase(state).name} of an unfinished game"
        check_illegal(engine, state, known_types, rng)
        action = rng.choice(legal)
        assert Action.from_json(json.loads(action.dumps())) == action
        assert engine.describe(action, state).strip(), "describe() returned nothing"
        state = engine.apply(state, action)
        history.append(action)
    return state, history


def replay(engine: Engine[Any], setup: Setup, history: list[Action]) -> Any:
    state = engine.new_state(setup)
    for action in history:
        state = engine.apply(state, action)
    return state
