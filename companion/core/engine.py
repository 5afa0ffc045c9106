"""The engine protocol every game implements (after OpenSpiel's State API), pure and total.

An engine is a stateless object; states are frozen dataclasses it creates and transforms:

    state = game.new_state(setup)
    while not game.is_over(state):
        action = ...  # from a player, or the camera as chance player
        state = game.apply(state, action)   # raises InvalidAction / IllegalAction

Engines never roll dice, read clocks or touch devices; everything random arrives as an
action (``roll``). ``GameBase`` supplies the checks that make rejections say what was
expected ("Can't answer during MOVE: expected roll").
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from . import codec
from .actions import Action, FrozenArgs, freeze_json
from .errors import IllegalAction, InvalidAction

S = TypeVar("S")


@dataclass(frozen=True)
class Seat:
    """A pawn at the table: one person, or a team (duo/trio) answering as one."""

    name: str
    members: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidAction(f"a seat needs a name, got {self.name!r}")


@dataclass(frozen=True)
class Setup:
    """Who sits where (clockwise order) and the table's options for one game session."""

    seats: tuple[Seat, ...]
    options: Mapping[str, Any] = field(default_factory=FrozenArgs)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        object.__setattr__(self, "options", freeze_json(dict(self.options), "setup.options"))

    @classmethod
    def of(cls, *names: str, **options: Any) -> Setup:
        return cls(tuple(Seat(n) for n in names), FrozenArgs(options))

    def to_json(self) -> dict[str, Any]:
        return codec.dump(self)  # type: ignore[no-any-return]

    @classmethod
    def from_json(cls, data: Any) -> Setup:
        setup = codec.load(cls, data, "setup")
        return setup  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seats and a one-line reason."""

    winners: tuple[int, ...]
    reason: str


@runtime_checkable
class Engine(Protocol[S]):
    """What the referee, the contract suite and the UI may rely on for every game."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]

    def new_state(self, setup: Setup) -> S: ...
    def phase(self, state: S) -> enum.Enum: ...
    def current_player(self, state: S) -> int | None: ...
    def legal_actions(self, state: S) -> Sequence[Action]: ...
    def apply(self, state: S, action: Action) -> S: ...
    def is_over(self, state: S) -> bool: ...
    def outcome(self, state: S) -> Outcome | None: ...
    def public_view(self, state: S) -> dict[str, Any]: ...
    def describe(self, action: Action, state: S | None = None) -> str: ...
    def state_to_json(self, state: S) -> dict[str, Any]: ...
    def state_from_json(self, data: Mapping[str, Any]) -> S: ...
    def example_setups(self) -> Sequence[Setup]: ...
    def prepare_setup(self, setup: Setup) -> Setup: ...


class GameBase(Generic[S]):
    """Shared plumbing for engines built on frozen dataclass states.

    Subclasses set ``id``, ``title``, ``min_seats``, ``max_seats``, ``state_type`` and
    ``allowed`` (phase -> action types allowed in it), and implement ``new_state``,
    ``phase``, ``current_player``, ``legal_actions``, ``_apply``, ``is_over``, ``outcome``,
    ``public_view`` and ``describe``. ``apply`` checks the phase, the acting seat and game
    over before calling ``_apply``, so a rejection always names what was expected.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 6
    state_type: ClassVar[type]
    allowed: ClassVar[Mapping[enum.Enum, Iterable[str]]]
    #: action types any seat may play whatever whose turn it is (e.g. a Call to All answer)
    any_seat_actions: ClassVar[frozenset[str]] = frozenset()

    # -- to implement ------------------------------------------------------------------
    def phase(self, state: S) -> enum.Enum:
        raise NotImplementedError

    def current_player(self, state: S) -> int | None:
        raise NotImplementedError

    def is_over(self, state: S) -> bool:
        raise NotImplementedError

    def _apply(self, state: S, action: Action) -> S:
        raise NotImplementedError

    # -- provided ----------------------------------------------------------------------
    def check_seats(self, setup: Setup) -> None:
        n = len(setup.seats)
        if not self.min_seats <= n <= self.max_seats:
            raise InvalidAction(
                f"{self.title} is played by {self.min_seats} to {self.max_seats} pawns, got {n}"
            )

    def example_setups(self) -> Sequence[Setup]:
        """Tables the contract suite and demo mode can start: every allowed seat count."""
        return [
            Setup.of(*(f"Player {i + 1}" for i in range(n)))
            for n in range(self.min_seats, self.max_seats + 1)
        ]

    def prepare_setup(self, setup: Setup) -> Setup:
        """Complete a setup before it is journaled (e.g. fill in the shipped board), so a
        replay never depends on files edited later. Identity by default."""
        return setup

    def expected(self, state: S) -> list[str]:
        return sorted(self.allowed.get(self.phase(state), ()))

    def apply(self, state: S, action: Action) -> S:
        if not isinstance(action, Action):
            raise InvalidAction(f"expected an Action, got {action!r}")
        if self.is_over(state):
            raise IllegalAction(f"Can't {action.type}: the game is over")
        phase = self.phase(state)
        expected = self.expected(state)
        if action.type not in expected:
            main = [t for t in expected if t not in self.any_seat_actions] or expected
            what = " or ".join(main) or "nothing"
            raise IllegalAction(f"Can't {action.type} during {phase.name}: expected {what}")
        if action.type not in self.any_seat_actions:
            current = self.current_player(state)
            if action.player is not None and current is not None and action.player != current:
                raise IllegalAction(
                    f"Can't {action.type} for seat {action.player}: it is seat {current}'s turn"
                )
        return self._apply(state, action)

    def state_to_json(self, state: S) -> dict[str, Any]:
        return codec.dump(state)  # type: ignore[no-any-return]

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        return codec.load(self.state_type, data, self.id)  # type: ignore[no-any-return]

    @staticmethod
    def reject(message: str) -> IllegalAction:
        return IllegalAction(message)
