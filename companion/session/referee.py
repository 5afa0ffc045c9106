"""The referee: the one door to the game engines.

Every intent (a touch, a GPIO button, a camera reading, a replayed line) goes through
``Referee.submit``, which answers ``Accepted`` or ``Rejected(code, message)``; nothing an
engine raises reaches the screen. An accepted action is first written to the journal and
only then becomes the live state, so the journal and the screen never disagree.

Undo and redo are journal events too. Every accepted intent bumps ``state_id``; an intent
made against an older state id (a double tap, a bouncing button, a second player pressing
at the same moment) is dropped with ``RejectCode.STALE``.
"""

from __future__ import annotations

import enum
import logging
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from ..core import codec
from ..core.actions import Action
from ..core.engine import Engine, Setup
from ..core.errors import CompanionError, IllegalAction, InvalidAction, JournalError
from ..games.registry import Registry
from .journal import Journal, JournalEvent

log = logging.getLogger(__name__)

S = TypeVar("S")


class RejectCode(enum.Enum):
    STALE = "stale"  # made against an older state id: dropped
    INVALID = "invalid"  # malformed action
    ILLEGAL = "illegal"  # not allowed now
    NOTHING_TO_UNDO = "nothing_to_undo"
    NOTHING_TO_REDO = "nothing_to_redo"
    GAME_OVER = "game_over"
    NO_SESSION = "no_session"
    UNKNOWN_GAME = "unknown_game"
    JOURNAL = "journal"  # could not read or write the journal
    INTERNAL = "internal"  # an engine bug: the action was not recorded


@dataclass(frozen=True)
class Intent:
    """What a person (or the camera) wants, against the state id they saw."""

    kind: Literal["action", "undo", "redo"]
    action: Action | None = None
    state_id: int | None = None  # None: don't check (scripts, replays)
    source: str = "touch"


@dataclass(frozen=True)
class Accepted:
    state_id: int
    description: str


@dataclass(frozen=True)
class Rejected:
    code: RejectCode
    message: str


Verdict = Accepted | Rejected


@dataclass
class _Live(Generic[S]):
    """The fold of one session's journal: states along the undo stack, and the redo stack."""

    session_id: int
    game: str
    setup: Setup
    states: list[S]  # states[0] is the initial state; states[-1] the current one
    done: list[Action] = field(default_factory=list)  # actions leading to states[1:]
    undone: list[Action] = field(default_factory=list)  # redo stack, last undone at the end
    state_id: int = 0


class Referee:
    def __init__(self, journal: Journal, registry: Registry) -> None:
        self.journal = journal
        self.registry = registry
        self._live: _Live[Any] | None = None
        self._engine: Engine[Any] | None = None

    # -- sessions ------------------------------------------------------------------------
    def start(self, game_id: str, setup: Setup) -> Verdict:
        """Begin a new session of ``game_id``; an unfinished previous one stays resumable."""
        try:
            engine = self.registry.get(game_id)
            setup = engine.prepare_setup(setup)
            state = engine.new_state(setup)
            sid = self.journal.create_session(game_id, setup)
        except JournalError as exc:
            return Rejected(RejectCode.JOURNAL, str(exc))
        except CompanionError as exc:
            return Rejected(RejectCode.INVALID, str(exc))
        except Exception as exc:  # an engine bug must not reach the screen
            log.exception("engine %s failed to set up", game_id)
            return Rejected(RejectCode.INTERNAL, f"{game_id} could not start: {exc}")
        self._engine = engine
        self._live = _Live(sid, game_id, setup, [state])
        return Accepted(0, f"{engine.title}: new game")

    def resume(self, session_id: int) -> Verdict:
        """Rebuild a session from its journal (after a restart or a power cut)."""
        try:
            info = self.journal.session(session_id)
            engine = self.registry.get(info.game)
        except JournalError as exc:
            return Rejected(RejectCode.JOURNAL, str(exc))
        except InvalidAction as exc:
            return Rejected(RejectCode.UNKNOWN_GAME, str(exc))
        try:
            live = fold(engine, session_id, info.game, info.setup, self.journal.events(session_id))
        except JournalError as exc:
            return Rejected(RejectCode.JOURNAL, str(exc))
        except Exception as exc:  # an engine bug while replaying must not reach the screen
            log.exception("engine %s failed replaying session %s", info.game, session_id)
            return Rejected(
                RejectCode.INTERNAL,
                f"{engine.title} could not replay session {session_id} ({type(exc).__name__})",
            )
        self._engine = engine
        self._live = live
        return Accepted(live.state_id, f"{engine.title}: resumed")

    def close_session(self) -> None:
        self._live = None
        self._engine = None

    # -- the one door --------------------------------------------------------------------
    def submit(self, intent: Intent) -> Verdict:
        live, engine = self._live, self._engine
        if live is None or engine is None:
            return Rejected(RejectCode.NO_SESSION, "No game in progress: start or resume one")
        if intent.state_id is not None and intent.state_id != live.state_id:
            return Rejected(
                RejectCode.STALE,
                f"Ignored a {intent.kind} made on an older screen "
                f"(state {intent.state_id}, now {live.state_id})",
            )
        try:
            if intent.kind == "action":
                return self._act(live, engine, intent.action)
            if intent.kind == "undo":
                return self._undo(live, engine)
            if intent.kind == "redo":
                return self._redo(live, engine)
            return Rejected(RejectCode.INVALID, f"Unknown intent {intent.kind!r}")
        except JournalError as exc:
            return Rejected(RejectCode.JOURNAL, f"Not saved, try again: {exc}")
        except Exception as exc:  # nothing raised by an engine reaches the screen
            log.exception("engine %s failed on %r", live.game, intent)
            return Rejected(
                RejectCode.INTERNAL,
                f"The referee hit a problem ({type(exc).__name__}); nothing was recorded",
            )

    def _commit(
        self, live: _Live[Any], engine: Engine[Any], type_: str, payload: dict[str, Any], new: Any
    ) -> None:
        over = engine.is_over(new)
        outcome = engine.outcome(new) if over else None
        live.state_id = self.journal.append(
            live.session_id,
            type_,
            payload,
            expected_seq=live.state_id + 1,
            status="finished" if over else "playing",
            outcome=codec.dump(outcome) if outcome is not None else None,
        )

    def _act(self, live: _Live[Any], engine: Engine[Any], action: Action | None) -> Verdict:
        if not isinstance(action, Action):
            return Rejected(RejectCode.INVALID, f"An action intent needs an action, got {action!r}")
        state = live.states[-1]
        if engine.is_over(state):
            return Rejected(RejectCode.GAME_OVER, "The game is over: undo or start a new one")
        try:
            new = engine.apply(state, action)
        except InvalidAction as exc:
            return Rejected(RejectCode.INVALID, str(exc))
        except IllegalAction as exc:
            return Rejected(RejectCode.ILLEGAL, str(exc))
        self._commit(live, engine, "action", {"action": action.to_json()}, new)
        live.states.append(new)
        live.done.append(action)
        live.undone.clear()
        return Accepted(live.state_id, engine.describe(action, state))

    def _undo(self, live: _Live[Any], engine: Engine[Any]) -> Verdict:
        if not live.done:
            return Rejected(RejectCode.NOTHING_TO_UNDO, "Nothing to undo")
        action = live.done[-1]
        self._commit(live, engine, "undo", {"undone": action.to_json()}, live.states[-2])
        live.states.pop()
        live.undone.append(live.done.pop())
        return Accepted(live.state_id, f"Undone: {engine.describe(action, live.states[-1])}")

    def _redo(self, live: _Live[Any], engine: Engine[Any]) -> Verdict:
        if not live.undone:
            return Rejected(RejectCode.NOTHING_TO_REDO, "Nothing to redo")
        action = live.undone[-1]
        new = engine.apply(live.states[-1], action)
        self._commit(live, engine, "redo", {"redone": action.to_json()}, new)
        live.states.append(new)
        live.done.append(live.undone.pop())
        return Accepted(live.state_id, f"Redone: {engine.describe(action, live.states[-2])}")

    # -- what the screen reads -----------------------------------------------------------
    @property
    def session_id(self) -> int | None:
        return self._live.session_id if self._live else None

    @property
    def engine(self) -> Engine[Any] | None:
        return self._engine

    @property
    def state(self) -> Any:
        return self._live.states[-1] if self._live else None

    @property
    def state_id(self) -> int:
        return self._live.state_id if self._live else 0

    @property
    def can_undo(self) -> bool:
        return bool(self._live and self._live.done)

    @property
    def can_redo(self) -> bool:
        return bool(self._live and self._live.undone)

    def view(self) -> dict[str, Any]:
        """The public view of the current state plus what every screen needs to know."""
        live, engine = self._live, self._engine
        if live is None or engine is None:
            return {"session": None}
        state = live.states[-1]
        over = engine.is_over(state)
        outcome = engine.outcome(state) if over else None
        return {
            "session": live.session_id,
            "game": live.game,
            "state_id": live.state_id,
            "phase": engine.phase(state).name,
            "current_player": engine.current_player(state),
            "can_undo": self.can_undo,
            "can_redo": self.can_redo,
            "is_over": over,
            "outcome": codec.dump(outcome) if outcome is not None else None,
            "view": engine.public_view(state),
        }


def fold(
    engine: Engine[Any], session_id: int, game: str, setup: Setup, events: list[JournalEvent]
) -> _Live[Any]:
    """State = fold(journal). A journaled event the engine refuses is reported, never skipped."""
    try:
        live: _Live[Any] = _Live(session_id, game, setup, [engine.new_state(setup)])
    except CompanionError as exc:
        raise JournalError(f"session {session_id}: its setup is refused by {game}: {exc}") from None
    for ev in events:
        where = f"event row {ev.row} (session {session_id}, event {ev.seq})"
        try:
            if ev.type == "action":
                action = Action.from_json(ev.payload.get("action"))
                live.states.append(engine.apply(live.states[-1], action))
                live.done.append(action)
                live.undone.clear()
            elif ev.type == "undo":
                if not live.done:
                    raise JournalError(f"{where}: an undo with nothing to undo")
                live.states.pop()
                live.undone.append(live.done.pop())
            elif ev.type == "redo":
                if not live.undone:
                    raise JournalError(f"{where}: a redo with nothing to redo")
                action = live.undone.pop()
                live.states.append(engine.apply(live.states[-1], action))
                live.done.append(action)
        except JournalError:
            raise
        except CompanionError as exc:
            raise JournalError(f"{where} cannot be replayed: {exc}") from None
        live.state_id = ev.seq
    return live
