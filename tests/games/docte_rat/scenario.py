"""A small language for Le Docte Rat scenarios, in the rulebook's words.

Every step goes through the real referee and an SQLite journal, as at the table::

    table = Table("Alice", "Bob", first="Alice",
                  board=board_with(college={2: "erudition call=left"}),
                  pawns={"Alice": ("college", -1, 40)})
    table.roll(5, 2)          # Alice: difference 3 -> College space 2
    table.wrong()             # Call to All, to Alice's left: Bob answers
    table.right()
    assert table.bulletin("Bob") == 10

``board_with`` builds a valid 77-space board from a plain one (Petite Colle on the
Schoolchildren's Path, Érudition at the College, Mini-Test at the University, 33/24/20
spaces) with the given spaces replaced, written in the board file's own syntax.
"""

from __future__ import annotations

import json
from typing import Any

from companion.core import codec
from companion.core.actions import Action
from companion.core.engine import Seat, Setup
from companion.games.docte_rat.board import Board, Space
from companion.games.docte_rat.engine import ENGINE
from companion.games.docte_rat.files import parse_board
from companion.games.registry import Registry
from companion.session.journal import Journal
from companion.session.referee import Accepted, Intent, Referee, Rejected

SIZES = {"school": 33, "college": 24, "university": 20}
FILL = {"school": "petite_colle", "college": "erudition", "university": "mini_test"}


def board_with(**tracks: dict[int, str]) -> Board:
    """A 77-space board; ``school={3: "duo"}`` puts a Duo on school space 3 (0 = Start)."""
    lines = ['board "scenario"']
    for key, size in SIZES.items():
        lines.append(f"track {key}")
        spaces = [FILL[key]] * size
        if key == "school":
            spaces[0] = "start"
        else:
            spaces[-1] = "exit"
        for index, text in tracks.get(key, {}).items():
            spaces[index] = text
        lines += spaces
    return parse_board("\n".join(lines) + "\n", "scenario-board.txt")


class Table:
    def __init__(
        self,
        *names: str | Seat,
        first: str | None = None,
        board: Board | str = "default",
        goals: tuple[int, int, int] | None = None,
        pawns: dict[str, tuple[str, int, int]] | None = None,
        settings: dict[str, Any] | None = None,
        deck: Any = "default",
    ) -> None:
        seats = tuple(n if isinstance(n, Seat) else Seat(n) for n in names)
        self.names = [s.name for s in seats]
        options: dict[str, Any] = {
            "board": codec.dump(board) if isinstance(board, Board) else board,
            "deck": deck,
        }
        if goals is not None:
            options["goals"] = list(goals)
        if first is not None:
            options["first"] = self.seat(first)
        if pawns:
            placed: list[dict[str, Any]] = [{} for _ in seats]
            for name, (track, position, bulletin) in pawns.items():
                placed[self.seat(name)] = {
                    "track": track, "position": position, "bulletin": bulletin,
                }
            options["pawns"] = placed
        if settings:
            options["settings"] = settings
        self.journal = Journal.open(":memory:")
        self.referee = Referee(self.journal, Registry((ENGINE,)))
        verdict = self.referee.start(ENGINE.id, Setup(seats, options))
        assert isinstance(verdict, Accepted), verdict

    # -- doing -----------------------------------------------------------------------------
    def seat(self, name: str) -> int:
        return self.names.index(name)

    def submit(self, type_: str, player: int | None = None, **args: Any) -> Accepted:
        seat = self.referee.view()["current_player"] if player is None else player
        verdict = self.referee.submit(
            Intent("action", Action(type_, args, seat), self.referee.state_id)
        )
        assert isinstance(verdict, Accepted), verdict
        return verdict

    def rejected(self, type_: str, player: int | None = None, **args: Any) -> str:
        """Submit something the rules refuse; check nothing changed; return the message."""
        before = (self.referee.state, self.referee.state_id,
                  len(self.journal.events(self.referee.session_id)))
        seat = self.referee.view()["current_player"] if player is None else player
        verdict = self.referee.submit(
            Intent("action", Action(type_, args, seat), self.referee.state_id)
        )
        assert isinstance(verdict, Rejected), f"{type_} {args} was accepted"
        after = (self.referee.state, self.referee.state_id,
                 len(self.journal.events(self.referee.session_id)))
        assert after == before, "a rejected action changed the game or the journal"
        return verdict.message

    def roll(self, a: int, b: int) -> None:
        self.submit("roll", dice=[a, b])

    def roll_off(self, *totals_dice: tuple[int, int]) -> None:
        """Each contender in turn rolls the given dice."""
        for dice in totals_dice:
            self.submit("roll", dice=list(dice))

    def right(self, points: int | None = None) -> None:
        args: dict[str, Any] = {"correct": True}
        if points is not None:
            args["points"] = points
        self.submit("answer", **args)

    def wrong(self, points: int | None = None) -> None:
        args: dict[str, Any] = {"correct": False}
        if points is not None:
            args["points"] = points
        self.submit("answer", **args)

    def stay(self) -> None:
        self.submit("stay")

    def advance(self) -> None:
        self.submit("advance")

    def choose(self, series: str) -> None:
        self.submit("choose_series", series=series)

    def draw(self, card: int) -> None:
        self.submit("draw_card", card=card)

    def mini_test(self, kind: str, values: list[int] | None = None) -> None:
        args: dict[str, Any] = {"kind": kind}
        if values is not None:
            args["values"] = values
        self.submit("mini_test_card", **args)

    def landed(self, type_: str, **params: Any) -> None:
        self.submit("landed", space=codec.dump(Space(type_, **params)))

    def stop(self) -> None:
        self.submit("stop")

    def double(self) -> None:
        self.submit("double")

    def infraction(self, name: str) -> None:
        self.submit("infraction", player=self.seat(name), seat=self.seat(name))

    def undo(self) -> None:
        assert isinstance(self.referee.submit(Intent("undo", state_id=self.referee.state_id)),
                          Accepted)

    def redo(self) -> None:
        assert isinstance(self.referee.submit(Intent("redo", state_id=self.referee.state_id)),
                          Accepted)

    # -- reading ---------------------------------------------------------------------------
    @property
    def view(self) -> dict[str, Any]:
        return self.referee.view()

    def pawn(self, name: str) -> dict[str, Any]:
        return self.view["view"]["seats"][self.seat(name)]  # type: ignore[no-any-return]

    def bulletin(self, name: str) -> int:
        return self.pawn(name)["bulletin"]  # type: ignore[no-any-return]

    def track(self, name: str) -> str:
        return self.pawn(name)["track"]  # type: ignore[no-any-return]

    def position(self, name: str) -> int:
        return self.pawn(name)["position"]  # type: ignore[no-any-return]

    @property
    def phase(self) -> str:
        return self.view["phase"]  # type: ignore[no-any-return]

    @property
    def turn(self) -> str:
        """Whose normal turn it is (the pawn to roll, or whose space is being played)."""
        return self.names[self.view["view"]["current"]]

    @property
    def answering(self) -> str:
        question = self.view["view"]["question"]
        assert question is not None, f"no question pending (phase {self.phase})"
        return self.names[question["answering"]]

    @property
    def question(self) -> dict[str, Any] | None:
        return self.view["view"]["question"]  # type: ignore[no-any-return]

    @property
    def over(self) -> bool:
        return bool(self.view["is_over"])

    @property
    def winner(self) -> str | None:
        outcome = self.view["outcome"]
        return self.names[outcome["winners"][0]] if outcome else None

    def notices(self) -> list[str]:
        return [n["kind"] for n in self.view["view"]["notices"]]

    def events(self) -> list[str]:
        return [json.dumps(e.payload) for e in self.journal.events(self.referee.session_id)]
