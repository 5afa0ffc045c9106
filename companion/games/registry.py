"""The games the companion knows, by id. Pure: importing a game never touches a device."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.engine import Engine
from ..core.errors import InvalidAction


@dataclass(frozen=True)
class GameInfo:
    """A game as the home screen lists it, whether or not its engine exists yet."""

    id: str
    title: str
    available: bool


#: The four games of the table, in the order the home screen shows them.
CATALOGUE: tuple[GameInfo, ...] = (
    GameInfo("docte-rat", "Le Docte Rat", False),
    GameInfo("rats-in-the-walls", "The Rats in the Walls", False),
    GameInfo("ratjack", "Ratjack", False),
    GameInfo("debrouille", "Débrouille-toi !", False),
)


class Registry:
    """Engines by id. The app uses ``default_registry()``; tests may add their own games."""

    def __init__(self, engines: tuple[Engine, ...] = ()) -> None:  # type: ignore[type-arg]
        self._engines: dict[str, Engine] = {}  # type: ignore[type-arg]
        for engine in engines:
            self.register(engine)

    def register(self, engine: Engine) -> None:  # type: ignore[type-arg]
        if engine.id in self._engines:
            raise InvalidAction(f"a game with id {engine.id!r} is already registered")
        self._engines[engine.id] = engine

    def get(self, game_id: str) -> Engine:  # type: ignore[type-arg]
        try:
            return self._engines[game_id]
        except KeyError:
            known = ", ".join(sorted(self._engines)) or "none yet"
            raise InvalidAction(f"unknown game {game_id!r}; available games: {known}") from None

    def ids(self) -> list[str]:
        return sorted(self._engines)

    def engines(self) -> list[Engine]:  # type: ignore[type-arg]
        return [self._engines[k] for k in self.ids()]

    def catalogue(self) -> list[GameInfo]:
        return [GameInfo(g.id, g.title, g.id in self._engines) for g in CATALOGUE] + [
            GameInfo(e.id, e.title, True)
            for e in self.engines()
            if e.id not in {g.id for g in CATALOGUE}
        ]


def default_registry() -> Registry:
    """Every game engine shipped with the companion (each game issue adds its engine here)."""
    from .docte_rat.engine import ENGINE as DOCTE_RAT

    return Registry((DOCTE_RAT,))
