"""What the table setup screen is choosing, without any drawing: the pawns (colour, name,
team members, seating order), the game length, the board and who starts, and the
``Setup`` they make for the engine. Nothing is journaled until the game starts."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from ....core.engine import Seat, Setup
from ....games.docte_rat.board import DEFAULT_GOALS
from ....games.docte_rat.engine import PAWN_COLOURS

MAX_PAWNS = 6
MAX_MEMBERS = 4
MIN_TEAM = 2
#: the rulebook's "shortened game" example: "20 points … 30 … 40"
SHORT_GOALS = (20, 30, 40)
GOAL_STEP = 5
GOAL_MIN = 5
GOAL_MAX = 200
LENGTHS = ("full", "short", "custom")
BOARDS = ("standard", "file", "free")


@dataclass
class PawnDraft:
    """One pawn being set up. ``number`` gives the default name ("Joueur 3") and stays with
    the pawn when it moves round the table; ``name`` None means that default name."""

    number: int
    colour: str
    name: str | None = None
    team: bool = False
    members: list[str] = field(default_factory=list)

    def shown_name(self, tr: Callable[..., str]) -> str:
        if self.name:
            return self.name
        key = "drsetup.team_default" if self.team else "drsetup.player_default"
        return tr(key, number=self.number)

    def seat(self, tr: Callable[..., str]) -> Seat:
        return Seat(self.shown_name(tr), tuple(self.members) if self.team else ())

    def snapshot(self) -> Hashable:
        return (self.number, self.colour, self.name, self.team, tuple(self.members))


@dataclass
class TableDraft:
    pawns: list[PawnDraft] = field(default_factory=list)
    length: str = "full"
    custom_goals: list[int] = field(default_factory=lambda: list(DEFAULT_GOALS))
    board: str = "standard"
    board_file: str = ""
    first: int | None = None  # the starting pawn's number; None: roll-off

    @classmethod
    def default(cls, board_file: str = "") -> TableDraft:
        """Two players, full game, the board file if the table set one, a roll-off."""
        table = cls(board_file=board_file, board="file" if board_file else "standard")
        table.add_pawn()
        table.add_pawn()
        return table

    # -- pawns -----------------------------------------------------------------------------
    def free_colours(self, keep: PawnDraft | None = None) -> list[str]:
        used = {p.colour for p in self.pawns if p is not keep}
        return [c for c in PAWN_COLOURS if c not in used]

    def add_pawn(self) -> PawnDraft | None:
        if len(self.pawns) >= MAX_PAWNS:
            return None
        numbers = {p.number for p in self.pawns}
        number = next(n for n in range(1, MAX_PAWNS + 2) if n not in numbers)
        pawn = PawnDraft(number, self.free_colours()[0])
        self.pawns.append(pawn)
        return pawn

    def remove_pawn(self, index: int) -> bool:
        if len(self.pawns) <= 1 or not 0 <= index < len(self.pawns):
            return False
        pawn = self.pawns.pop(index)
        if self.first == pawn.number:
            self.first = None
        return True

    def move_pawn(self, index: int, delta: int) -> bool:
        """Move a pawn one seat earlier (-1) or later (+1) round the table."""
        other = index + delta
        if not (0 <= index < len(self.pawns) and 0 <= other < len(self.pawns)):
            return False
        self.pawns[index], self.pawns[other] = self.pawns[other], self.pawns[index]
        return True

    def next_colour(self, index: int) -> str:
        """Give pawn ``index`` the next palette colour no other pawn has."""
        pawn = self.pawns[index]
        free = set(self.free_colours(keep=pawn))
        start = PAWN_COLOURS.index(pawn.colour)
        for step in range(1, len(PAWN_COLOURS) + 1):
            colour = PAWN_COLOURS[(start + step) % len(PAWN_COLOURS)]
            if colour in free:
                pawn.colour = colour
                break
        return pawn.colour

    def name_taken(self, name: str, index: int, tr: Callable[..., str]) -> bool:
        wanted = name.casefold()
        return any(p.shown_name(tr).casefold() == wanted
                   for i, p in enumerate(self.pawns) if i != index)

    # -- game --------------------------------------------------------------------------------
    def goals(self) -> tuple[int, int, int]:
        if self.length == "short":
            return SHORT_GOALS
        if self.length == "custom":
            school, college, university = self.custom_goals
            return (school, college, university)
        school, college, university = DEFAULT_GOALS
        return (school, college, university)

    def set_length(self, length: str) -> None:
        if length == "custom" and self.length != "custom":
            self.custom_goals = list(self.goals())  # start from what was chosen
        self.length = length

    def step_goal(self, track: int, delta: int) -> int:
        value = self.custom_goals[track] + delta * GOAL_STEP
        self.custom_goals[track] = max(GOAL_MIN, min(GOAL_MAX, value))
        return self.custom_goals[track]

    def boards(self) -> tuple[str, ...]:
        return BOARDS if self.board_file else tuple(b for b in BOARDS if b != "file")

    def first_index(self) -> int | None:
        return next((i for i, p in enumerate(self.pawns) if p.number == self.first), None)

    def setup(self, tr: Callable[..., str]) -> Setup:
        """The Setup the engine gets (board and deck files are read by prepare_setup)."""
        options: dict[str, Any] = {
            "goals": list(self.goals()),
            "colours": [p.colour for p in self.pawns],
        }
        if self.board == "free":
            options["board"] = "free"
        elif self.board == "file" and self.board_file:
            options["board_file"] = self.board_file
        first = self.first_index()
        if first is not None:
            options["first"] = first
        return Setup(tuple(p.seat(tr) for p in self.pawns), options)

    def snapshot(self) -> Hashable:
        return (tuple(p.snapshot() for p in self.pawns), self.length, tuple(self.custom_goals),
                self.board, self.board_file, self.first)
