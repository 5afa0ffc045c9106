"""A small test-only game that exercises the engine protocol: "Race to the Goal".

Each turn the current seat rolls two dice (the roll arrives as an action, as from the
camera). A plain roll moves the pawn by the sum. A double lets the seat choose: ``advance``
by the sum or ``stay``. Reaching the goal wins at once. Used by the contract suite, the
journal and referee tests, and the replay CLI tests, before any real game exists.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.core.actions import Action, roll_action
from companion.core.engine import GameBase, Outcome, Setup
from companion.core.errors import IllegalAction, InvalidAction
from companion.core.turns import check_dice, next_seat


class Phase(enum.Enum):
    ROLL = "roll"
    CHOOSE = "choose"
    OVER = "over"


@dataclass(frozen=True)
class RaceState:
    seats: tuple[str, ...]
    goal: int
    positions: tuple[int, ...]
    current: int
    phase: Phase
    pending: tuple[int, ...] = ()
    winner: int | None = None


class RaceGame(GameBase[RaceState]):
    id = "race"
    title = "Race to the Goal"
    min_seats = 1
    max_seats = 4
    state_type = RaceState
    allowed = {Phase.ROLL: {"roll"}, Phase.CHOOSE: {"advance", "stay"}, Phase.OVER: set()}

    def new_state(self, setup: Setup) -> RaceState:
        self.check_seats(setup)
        goal = setup.options.get("goal", 20)
        if isinstance(goal, bool) or not isinstance(goal, int) or goal < 2:
            raise InvalidAction(f"goal must be a whole number of at least 2, got {goal!r}")
        n = len(setup.seats)
        return RaceState(tuple(s.name for s in setup.seats), goal, (0,) * n, 0, Phase.ROLL)

    def phase(self, state: RaceState) -> Phase:
        return state.phase

    def current_player(self, state: RaceState) -> int | None:
        return None if state.phase is Phase.OVER else state.current

    def legal_actions(self, state: RaceState) -> Sequence[Action]:
        p = state.current
        if state.phase is Phase.ROLL:
            return [roll_action((a, b), p) for a in range(1, 7) for b in range(1, 7)]
        if state.phase is Phase.CHOOSE:
            return [Action("advance", player=p), Action("stay", player=p)]
        return []

    def _move(self, state: RaceState, steps: int) -> RaceState:
        positions = list(state.positions)
        positions[state.current] = min(state.goal, positions[state.current] + steps)
        if positions[state.current] >= state.goal:
            return replace(
                state,
                positions=tuple(positions),
                phase=Phase.OVER,
                pending=(),
                winner=state.current,
            )
        return replace(
            state,
            positions=tuple(positions),
            phase=Phase.ROLL,
            pending=(),
            current=next_seat(state.current, len(state.seats)),
        )

    def _apply(self, state: RaceState, action: Action) -> RaceState:
        if action.type == "roll":
            dice = check_dice(action.arg("dice"), 2)
            if dice[0] == dice[1]:
                return replace(state, phase=Phase.CHOOSE, pending=dice)
            return self._move(state, sum(dice))
        if action.type == "advance":
            return self._move(state, sum(state.pending))
        if action.type == "stay":
            return self._move(state, 0)
        raise IllegalAction(f"unexpected {action.type}")  # pragma: no cover (checked in apply)

    def is_over(self, state: RaceState) -> bool:
        return state.phase is Phase.OVER

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome((state.winner,), f"{state.seats[state.winner]} reached {state.goal}")

    def public_view(self, state: RaceState) -> dict[str, Any]:
        return {
            "seats": [
                {"name": n, "position": p}
                for n, p in zip(state.seats, state.positions, strict=False)
            ],
            "goal": state.goal,
            "pending_double": list(state.pending),
        }

    def describe(self, action: Action, state: RaceState | None = None) -> str:
        who = state.seats[action.player] if state and action.player is not None else "The table"
        if action.type == "roll":
            return f"{who} rolled {' + '.join(str(d) for d in action.arg('dice', ()))}"
        return f"{who} chose to {action.type}"
