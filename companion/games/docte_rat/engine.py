"""Le Docte Rat: the pure rules engine (rulebook: shared/rulebooks/le-docte-rat.txt).

The players keep their board, pawns, dice and cards; the engine is the Bulletin and the
referee. It never rolls: dice arrive as ``roll`` actions (camera or dice pad). Readings the
rulebook leaves open are settings or data, listed in docs/rules-decisions.md.

Phases and what they wait for::

    ROLL_OFF        roll            everyone rolls; lowest total starts, ties re-roll
    ROLL            roll            the current pawn's normal turn
    DOUBLES         stay | advance  College/University doubles: stay, or advance by one die
    LANDING         landed          board-free mode: which space did the pawn land on?
    QUESTION        answer          right or wrong (a Call to All asks round the table)
    MINI_TEST_CARD  mini_test_card  what the blue card holds (questions, single, clues)
    CHOOSE_SERIES   choose_series   Carte blanche and Dilemme
    DRAW_CARD       draw_card       which "Que fais-je?" card was drawn
    DOUBLE_OR_QUIT  stop | double   Quitte ou double after a right answer
    OVER            -               someone is Docte Rat

``infraction`` (cheating) is accepted in every phase but OVER, from any seat.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...core import codec
from ...core.actions import Action, roll_action
from ...core.engine import GameBase, Outcome, Seat, Setup
from ...core.errors import CompanionError, IllegalAction, InvalidAction
from ...core.turns import check_dice, lowest, next_seat
from .board import (
    BON_MOT_VALUES,
    CALL_DIRECTIONS,
    CALLABLE_SERIES,
    DEFAULT_GOALS,
    SERIES,
    SERIES_POINTS,
    TRACK_NAMES,
    TRACKS,
    Board,
    Card,
    Deck,
    Space,
)
from .files import check_board, check_deck, check_space

SCHOOL, COLLEGE, UNIVERSITY = 0, 1, 2
ENTRANCE = -1  # position of a pawn on a track's Entrance arrow (before its first space)
TRACK_SERIES = ("petite_colle", "erudition", "mini_test")  # the colour that predominates
DUO_POINTS = 15
MINI_TEST_MAX = 15
CLUE_POINTS = (15, 10, 5)  # "Question à indices" / "Charade": first, second, third clue
REPEAT_YEAR_PENALTY = 5
TRACK_TITLES = ("Schoolchildren's Path", "Saint-Lauréat College", "University of Brilliant People")
#: Pawn colours a table may give its seats (setup option ``colours``, one per seat, all
#: different). The rulebook only says "6 pawns": eight common pawn colours, so a table can
#: match its own; without the option the seats take the first ones in this order.
PAWN_COLOURS = ("red", "blue", "green", "yellow", "white", "black", "orange", "purple")


class Phase(enum.Enum):
    ROLL_OFF = "roll_off"
    ROLL = "roll"
    DOUBLES = "doubles"
    LANDING = "landing"
    QUESTION = "question"
    MINI_TEST_CARD = "mini_test_card"
    CHOOSE_SERIES = "choose_series"
    DRAW_CARD = "draw_card"
    DOUBLE_OR_QUIT = "double_or_quit"
    OVER = "over"


@dataclass(frozen=True)
class Settings:
    """Readings of the rulebook on which tables may disagree (docs/rules-decisions.md)."""

    negative_bulletin: bool = False  # may a Dilemme, a card or a repeated year go below 0?
    card_move_meets_space: bool = True  # after a card's move, meet the space landed on
    double_or_quit_questions: int = 3  # most questions in one Quitte ou double
    free_warnings: int = 1  # cheating: infractions that are only a warning


@dataclass(frozen=True)
class Pawn:
    track: int = SCHOOL
    position: int = 0  # index in the track's spaces; ENTRANCE on an Entrance arrow
    bulletin: int = 0
    rest: int = 0  # normal turns still to skip
    infractions: int = 0


@dataclass(frozen=True)
class Question:
    """The question (or card) in play and who answers it now."""

    series: str
    purpose: str  # space | free | card | duo1 | duo2 | dilemme | double_or_quit
    owner: int  # whose turn it is
    answering: int  # the seat answering now (the owner, then the Call to All)
    value: int | None = None  # the card's points (Bon Mot: told with the answer)
    bonus: int = 0
    multiplier: int = 1
    call: str | None = None  # Call to All direction
    callers: tuple[int, ...] = ()  # seats still to ask in the Call to All
    in_call: bool = False
    mini_kind: str | None = None  # questions | single | clues
    mini_values: tuple[int, ...] = ()
    index: int = 0  # Mini-Test: question or clue number
    earned: int = 0  # Mini-Test: points earned on this card
    round: int = 0  # Quitte ou double: questions answered right so far
    stake: int = 0  # Quitte ou double: what stop would bank

    def points(self, value: int | None = None) -> int:
        base = self.value if value is None else value
        return (base or 0) * self.multiplier + self.bonus


@dataclass(frozen=True)
class Notice:
    """Something the last action did, for the screen to show (and animate)."""

    kind: str
    seat: int | None = None
    value: int = 0
    detail: str = ""


@dataclass(frozen=True)
class DocteRatState:
    seats: tuple[Seat, ...]
    goals: tuple[int, ...]
    board: Board | None  # None: board-free mode
    deck: Deck
    settings: Settings
    pawns: tuple[Pawn, ...]
    phase: Phase
    current: int = 0
    contenders: tuple[int, ...] = ()  # roll-off: seats still in it
    rolloff: tuple[int, ...] = ()  # roll-off totals so far, in contenders' order
    last_roll: tuple[int, ...] = ()
    steps: int = 0  # the move announced (LANDING, DOUBLES: one die)
    choices: tuple[str, ...] = ()  # CHOOSE_SERIES: the series allowed
    choice_purpose: str = ""  # CHOOSE_SERIES: free | dilemme
    question: Question | None = None
    roll_again: bool = False  # a card said so: same pawn rolls again at the end
    winner: int | None = None
    notices: tuple[Notice, ...] = ()
    colours: tuple[str, ...] = ()  # one per seat (PAWN_COLOURS); () in states made before


def _int(action: Action, name: str, allowed: Sequence[int] | None = None) -> int:
    value = action.arg(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"{action.type} needs a whole number {name}, got {value!r}")
    if allowed is not None and value not in allowed:
        want = ", ".join(str(a) for a in allowed)
        raise InvalidAction(f"{action.type}: {name} must be one of {want}, got {value}")
    return value


class DocteRat(GameBase[DocteRatState]):
    id = "docte-rat"
    title = "Le Docte Rat"
    min_seats = 1
    max_seats = 6
    state_type = DocteRatState
    allowed = {
        Phase.ROLL_OFF: {"roll", "infraction"},
        Phase.ROLL: {"roll", "infraction"},
        Phase.DOUBLES: {"stay", "advance", "infraction"},
        Phase.LANDING: {"landed", "infraction"},
        Phase.QUESTION: {"answer", "infraction"},
        Phase.MINI_TEST_CARD: {"mini_test_card", "infraction"},
        Phase.CHOOSE_SERIES: {"choose_series", "infraction"},
        Phase.DRAW_CARD: {"draw_card", "infraction"},
        Phase.DOUBLE_OR_QUIT: {"stop", "double", "infraction"},
        Phase.OVER: set(),
    }
    any_seat_actions = frozenset({"infraction"})

    # -- setting up ----------------------------------------------------------------------
    def prepare_setup(self, setup: Setup) -> Setup:
        """Fill in the shipped board and deck (reads assets; called once, before the journal
        records the setup, so a replay never depends on files edited later)."""
        from .files import default_board, default_deck, read_board_file, read_deck_file

        options = dict(setup.options)
        board_file = options.pop("board_file", None)
        deck_file = options.pop("deck_file", None)
        if board_file is not None:
            options["board"] = codec.dump(read_board_file(str(board_file)))
        elif options.get("board", "default") == "default":
            options["board"] = codec.dump(default_board())
        if deck_file is not None:
            options["deck"] = codec.dump(read_deck_file(str(deck_file)))
        elif options.get("deck", "default") == "default":
            options["deck"] = codec.dump(default_deck())
        return Setup(setup.seats, options)

    def new_state(self, setup: Setup) -> DocteRatState:
        self.check_seats(setup)
        opts = setup.options
        known = {"goals", "board", "deck", "settings", "pawns", "first", "colours"}
        # board_file and deck_file are read by prepare_setup before the game starts
        if set(opts) - known:
            raise InvalidAction(
                f"unknown Docte Rat option(s) {sorted(set(opts) - known)}; "
                f"expected {', '.join(sorted(known | {'board_file', 'deck_file'}))}"
            )
        goals = tuple(opts.get("goals", DEFAULT_GOALS))
        if len(goals) != 3 or any(
            isinstance(g, bool) or not isinstance(g, int) or g < 5 for g in goals
        ):
            raise InvalidAction(
                f"goals must be three whole numbers of at least 5 (school, college, "
                f"university), e.g. [25, 50, 75] or [20, 30, 40]; got {list(goals)}"
            )
        board_data = opts.get("board", "default")
        if board_data == "default":
            raise InvalidAction(
                "no board: give board='free' (board-free mode) or a board, or let "
                "prepare_setup() fill in the shipped one"
            )
        board = None
        if board_data != "free":
            board = check_board(codec.load(Board, board_data, "board"), "setup board")
        if board is not None and [t.key for t in board.tracks] != list(TRACKS):
            raise InvalidAction(f"a board has the tracks {', '.join(TRACKS)} in that order")
        deck_data = opts.get("deck")
        deck = Deck(())
        if deck_data not in (None, "none"):
            deck = check_deck(codec.load(Deck, deck_data, "deck"), "setup deck")
        settings = codec.load(Settings, opts.get("settings", {}), "settings")
        n = len(setup.seats)
        pawns = _placed_pawns(opts.get("pawns"), n, goals, board)
        first = opts.get("first")
        if first is not None and (isinstance(first, bool) or first not in range(n)):
            raise InvalidAction(f"first must be a seat from 0 to {n - 1}, got {first!r}")
        if n == 1:
            first = 0
        colours = _colours(opts.get("colours"), n)
        return DocteRatState(
            seats=setup.seats,
            goals=goals,
            board=board,
            deck=deck,
            settings=settings,
            pawns=pawns,
            phase=Phase.ROLL_OFF if first is None else Phase.ROLL,
            current=first or 0,
            contenders=tuple(range(n)) if first is None else (),
            colours=colours,
        )

    def example_setups(self) -> Sequence[Setup]:
        short = {"goals": [5, 10, 15]}
        teams = (Seat("Alice"), Seat("Les Rats", ("Bob", "Chloé")), Seat("Denis"))
        return [
            self.prepare_setup(Setup.of("Alice", **short)),
            self.prepare_setup(Setup.of("Alice", "Bob", **short)),
            self.prepare_setup(Setup(teams, short)),
            self.prepare_setup(Setup.of(*(f"P{i + 1}" for i in range(6)), goals=[5, 5, 10])),
            self.prepare_setup(Setup.of("Alice", "Bob", "Chloé", board="free", goals=[5, 10, 10])),
            self.prepare_setup(Setup.of("Alice", "Bob")),
        ]

    # -- reading the state ---------------------------------------------------------------
    def phase(self, state: DocteRatState) -> Phase:
        return state.phase

    def current_player(self, state: DocteRatState) -> int | None:
        if state.phase is Phase.OVER:
            return None
        if state.phase is Phase.QUESTION and state.question is not None:
            return state.question.answering
        if state.phase is Phase.ROLL_OFF:
            return state.contenders[len(state.rolloff)]
        return state.current

    def is_over(self, state: DocteRatState) -> bool:
        return state.phase is Phase.OVER

    def outcome(self, state: DocteRatState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome((state.winner,), f"{state.seats[state.winner].name} is Docte Rat")

    # -- what may be done ----------------------------------------------------------------
    def legal_actions(self, state: DocteRatState) -> Sequence[Action]:
        phase = state.phase
        if phase is Phase.OVER:
            return []
        p = self.current_player(state)
        out: list[Action] = []
        if phase in (Phase.ROLL_OFF, Phase.ROLL):
            out = [roll_action((a, b), p) for a in range(1, 7) for b in range(1, 7)]
        elif phase is Phase.DOUBLES:
            out = [Action("stay", player=p), Action("advance", player=p)]
        elif phase is Phase.LANDING:
            track = state.pawns[state.current].track
            out = [Action("landed", {"space": codec.dump(s)}, p) for s in landing_options(track)]
        elif phase is Phase.QUESTION:
            q = state.question
            assert q is not None
            if q.series == "bon_mot" and q.value is None:
                out = [
                    Action("answer", {"correct": c, "points": v}, p)
                    for c in (True, False)
                    for v in BON_MOT_VALUES
                ]
            else:
                out = [Action("answer", {"correct": c}, p) for c in (True, False)]
        elif phase is Phase.MINI_TEST_CARD:
            out = [
                Action("mini_test_card", {"kind": "single"}, p),
                Action("mini_test_card", {"kind": "clues"}, p),
                Action("mini_test_card", {"kind": "questions", "values": [5, 10]}, p),
                Action("mini_test_card", {"kind": "questions", "values": [5, 5, 5]}, p),
            ]
        elif phase is Phase.CHOOSE_SERIES:
            out = [Action("choose_series", {"series": s}, p) for s in state.choices]
        elif phase is Phase.DRAW_CARD:
            out = [Action("draw_card", {"card": c.number}, p) for c in state.deck.cards]
        elif phase is Phase.DOUBLE_OR_QUIT:
            out = [Action("stop", player=p), Action("double", player=p)]
        out += [Action("infraction", {"seat": s}) for s in range(len(state.seats))]
        return out

    # -- applying ------------------------------------------------------------------------
    def apply(self, state: DocteRatState, action: Action) -> DocteRatState:
        if (
            isinstance(action, Action)
            and action.type in ("stay", "advance")
            and state.phase is not Phase.DOUBLES
            and state.pawns[state.current].track == SCHOOL
        ):
            expected = " or ".join(t for t in self.expected(state) if t != "infraction")
            raise IllegalAction(
                f"Can't {action.type} during {state.phase.name}: no choice on doubles on the "
                f"Schoolchildren's Path (the pawn moves by the total of the dice); "
                f"expected {expected}"
            )
        return super().apply(state, action)

    def _apply(self, state: DocteRatState, action: Action) -> DocteRatState:
        state = replace(state, notices=())
        handler = getattr(self, f"_on_{action.type}")
        return handler(state, action)  # type: ignore[no-any-return]

    # roll-off and normal rolls
    def _on_roll(self, state: DocteRatState, action: Action) -> DocteRatState:
        dice = check_dice(action.arg("dice"), 2)
        state = replace(state, last_roll=dice)
        if state.phase is Phase.ROLL_OFF:
            return self._rolloff(state, sum(dice))
        seat, pawn = state.current, state.pawns[state.current]
        state = _notice(state, "rolled", seat, sum(dice), "-".join(map(str, dice)))
        if pawn.track == SCHOOL:
            return self._move(state, dice[0] + dice[1])
        if dice[0] == dice[1]:
            return replace(state, phase=Phase.DOUBLES, steps=dice[0])
        return self._move(state, abs(dice[0] - dice[1]))

    def _rolloff(self, state: DocteRatState, total: int) -> DocteRatState:
        seat = state.contenders[len(state.rolloff)]
        totals = state.rolloff + (total,)
        state = _notice(replace(state, rolloff=totals), "rolloff", seat, total)
        if len(totals) < len(state.contenders):
            return state
        by_seat = dict(zip(state.contenders, totals, strict=True))
        low = lowest(by_seat)
        if len(low) > 1:
            return _notice(replace(state, contenders=tuple(low), rolloff=()), "rolloff_tie",
                           None, by_seat[low[0]], ",".join(map(str, low)))
        return _notice(
            replace(state, phase=Phase.ROLL, current=low[0], contenders=(), rolloff=()),
            "starts", low[0],
        )

    def _on_stay(self, state: DocteRatState, action: Action) -> DocteRatState:
        pawn = state.pawns[state.current]
        state = _notice(state, "stays", state.current)
        if pawn.position == ENTRANCE:
            return self._end_turn(state)
        if state.board is None:
            return replace(state, phase=Phase.LANDING, steps=0)
        return self._meet(state, state.board.tracks[pawn.track].spaces[pawn.position])

    def _on_advance(self, state: DocteRatState, action: Action) -> DocteRatState:
        return self._move(state, state.steps)

    # moving
    def _move(self, state: DocteRatState, steps: int, meet: bool = True) -> DocteRatState:
        """Move the current pawn (negative: back) and meet the space, or ask which one."""
        seat, pawn = state.current, state.pawns[state.current]
        state = _notice(state, "moves", seat, steps)
        if state.board is None:  # board-free: position 0 = somewhere on the track
            if pawn.position == ENTRANCE and steps < 0:
                return self._end_turn(state)  # back from the Entrance arrow: stays there
            state = _set_pawn(state, seat, position=0)
            if not meet:
                return self._end_turn(state)
            return replace(state, phase=Phase.LANDING, steps=steps)
        spaces = state.board.tracks[pawn.track].spaces
        if pawn.track == SCHOOL:
            position = (pawn.position + steps) % len(spaces)
        else:
            position = max(ENTRANCE, pawn.position + steps)
            if position >= len(spaces) - 1:  # on or past the Exit: outside the track
                return self._repeat_year(state)
        state = _set_pawn(state, seat, position=position)
        if position == ENTRANCE or not meet:
            return self._end_turn(state)
        return self._meet(state, spaces[position])

    def _on_landed(self, state: DocteRatState, action: Action) -> DocteRatState:
        track = state.pawns[state.current].track
        data = action.arg("space")
        try:
            space = check_space(codec.load(Space, data, "landed.space"))
        except CompanionError as exc:
            raise InvalidAction(str(exc)) from None
        options = landing_types(track)
        if space.type not in options:
            raise InvalidAction(
                f"a pawn on the {TRACK_TITLES[track]} can't land on {space.type!r}; "
                f"expected one of {', '.join(options)}"
            )
        if space.call is not None and (
            space.type not in CALLABLE_SERIES or space.call not in CALL_DIRECTIONS
        ):
            raise InvalidAction(
                f"a Call to All (left or right) is only on {', '.join(CALLABLE_SERIES)}, "
                f"got call={space.call!r} on {space.type}"
            )
        if space.type == "exit":
            return self._repeat_year(state)
        return self._meet(state, space)

    def _repeat_year(self, state: DocteRatState) -> DocteRatState:
        """Passing over or beyond the Exit: back to the Entrance, Bulletin -5, roll again."""
        seat = state.current
        state = _set_pawn(state, seat, position=ENTRANCE)
        state = self._debit(state, seat, REPEAT_YEAR_PENALTY)
        state = _notice(state, "repeat_year", seat, REPEAT_YEAR_PENALTY)
        # The repeat-year roll is the roll again (a card's "roll again" is not added to it).
        return replace(state, phase=Phase.ROLL, question=None, steps=0, roll_again=False)

    # meeting a space
    def _meet(self, state: DocteRatState, space: Space) -> DocteRatState:
        seat = state.current
        state = _notice(state, "lands", seat, 0, space.label or space.type)
        kind = space.type
        if kind in SERIES:
            q = Question(
                series=kind, purpose="space", owner=seat, answering=seat,
                value=None if kind == "bon_mot" else SERIES_POINTS[kind],
                bonus=space.bonus, multiplier=space.multiplier, call=space.call,
            )
            return self._ask(state, q)
        if kind == "carte_blanche":
            return replace(state, phase=Phase.CHOOSE_SERIES, choices=SERIES,
                           choice_purpose="free")
        if kind == "dilemme":
            return replace(state, phase=Phase.CHOOSE_SERIES,
                           choices=("petite_colle", "erudition"), choice_purpose="dilemme")
        if kind == "duo":
            return self._ask(state, Question("petite_colle", "duo1", seat, seat, 5))
        if kind == "que_fais_je":
            if not state.deck.cards:
                return _notice(self._end_turn(state), "no_deck", seat)
            return replace(state, phase=Phase.DRAW_CARD)
        if kind == "rest":
            state = _set_pawn(state, seat, rest=state.pawns[seat].rest + space.turns)
            return self._end_turn(_notice(state, "rests", seat, space.turns))
        if kind == "bonus":
            return self._end_turn(self._credit(state, seat, space.bonus))
        if kind == "quitte_ou_double":
            series = space.series or TRACK_SERIES[state.pawns[seat].track]
            value = None if series in ("bon_mot", "mini_test") else SERIES_POINTS[series]
            return self._ask(state, Question(series, "double_or_quit", seat, seat, value))
        return self._end_turn(state)  # start, exit in the middle of nowhere: nothing to do

    def _ask(self, state: DocteRatState, q: Question) -> DocteRatState:
        if q.series == "mini_test" and q.mini_kind is None:
            return replace(state, phase=Phase.MINI_TEST_CARD, question=q)
        return _notice(replace(state, phase=Phase.QUESTION, question=q), "question",
                       q.answering, q.points() if q.value else 0, q.series)

    def _on_choose_series(self, state: DocteRatState, action: Action) -> DocteRatState:
        series = action.arg("series")
        if series not in state.choices:
            raise InvalidAction(
                f"choose one of {', '.join(state.choices)}, got {series!r}"
            )
        seat = state.current
        value = None if series == "bon_mot" else SERIES_POINTS[series]
        return self._ask(state, Question(series, state.choice_purpose, seat, seat, value))

    def _on_mini_test_card(self, state: DocteRatState, action: Action) -> DocteRatState:
        q = state.question
        assert q is not None
        kind = action.arg("kind")
        if kind == "questions":
            raw = action.arg("values")
            values = tuple(raw) if isinstance(raw, tuple) else ()
            if (
                len(values) < 2
                or any(type(v) is not int or v not in (5, 10) for v in values)
                or sum(values) > MINI_TEST_MAX
            ):
                raise InvalidAction(
                    "a Mini-Test of several questions gives each 5 or 10 points, at most 15 "
                    f"in all (e.g. [5, 10] or [5, 5, 5]); got {list(raw or [])}"
                )
        elif kind in ("single", "clues"):
            values = (MINI_TEST_MAX,) if kind == "single" else CLUE_POINTS
        else:
            raise InvalidAction(
                f"a Mini-Test card is 'questions' (with their values), 'single' (one question, "
                f"15 points) or 'clues' (Question à indices / Charade); got {kind!r}"
            )
        q = replace(q, mini_kind=kind, mini_values=values, index=0, value=values[0])
        return self._ask(state, q)

    # answers
    def _on_answer(self, state: DocteRatState, action: Action) -> DocteRatState:
        q = state.question
        assert q is not None
        correct = action.arg("correct")
        if not isinstance(correct, bool):
            raise InvalidAction(f"answer needs correct: true or false, got {correct!r}")
        if q.value is None:  # a Bon Mot says its value before the question is read
            points = action.arg("points")
            if isinstance(points, bool) or not isinstance(points, int) or (
                points not in BON_MOT_VALUES
            ):
                raise InvalidAction(
                    "a Bon Mot is worth 5 or 10 points, as its card says: answer with "
                    f"points 5 or 10 (got {action.arg('points')!r})"
                )
            q = replace(q, value=points)
        state = _notice(state, "right" if correct else "wrong", q.answering, 0, q.series)
        if q.mini_kind is not None:
            return self._mini_answer(state, q, correct)
        owner = q.owner
        if q.purpose == "duo1":
            if correct:
                return self._ask(state, Question("erudition", "duo2", owner, owner, 10))
            return self._end_turn(state)
        if q.purpose == "duo2":
            if correct:
                state = self._credit(state, owner, DUO_POINTS)
            return self._end_turn(state)
        if q.purpose == "dilemme":
            if correct:
                return self._end_turn(self._credit(state, owner, q.points()))
            return self._end_turn(self._debit(state, owner, q.points()))
        if q.purpose == "double_or_quit":
            return self._double_or_quit(state, q, correct, q.points())
        # space, free (Carte blanche), card: a single question, maybe a Call to All
        if correct:
            return self._end_turn(self._credit(state, q.answering, q.points()))
        if q.call is not None and not q.in_call:
            step = 1 if q.call == "left" else -1
            order = [next_seat(owner, len(state.seats), step * i) for i in
                     range(1, len(state.seats))]
            q = replace(q, in_call=True, callers=tuple(order))
        if q.in_call and q.callers:
            q = replace(q, answering=q.callers[0], callers=q.callers[1:])
            return _notice(replace(state, question=q), "call_to_all", q.answering, q.points())
        return self._end_turn(state)

    def _mini_answer(self, state: DocteRatState, q: Question, correct: bool) -> DocteRatState:
        """One answer on a Mini-Test card: every question is asked even after a miss; a
        right answer is credited at once (the card stops when it completes the goal); the
        clue card stops at the first right answer. In a Quitte ou double, the card's total
        is the round's result instead."""
        owner = q.owner
        staking = q.purpose == "double_or_quit"
        done = False
        if correct:
            bonus = q.bonus if q.earned == 0 else 0
            points = q.mini_values[q.index] * q.multiplier + bonus
            q = replace(q, earned=q.earned + points)
            done = q.mini_kind != "questions"
            if not staking:
                track_before = state.pawns[owner].track
                state = self._credit(state, owner, points)
                done = done or state.phase is Phase.OVER or (
                    state.pawns[owner].track != track_before
                )
        elif q.mini_kind == "single":
            done = True
        nxt = q.index + 1
        if not done and nxt < len(q.mini_values):
            return self._ask(state, replace(q, index=nxt, value=q.mini_values[nxt]))
        if staking:
            return self._double_or_quit(state, q, q.earned > 0, q.earned)
        return self._end_turn(state)

    def _double_or_quit(
        self, state: DocteRatState, q: Question, right: bool, points: int
    ) -> DocteRatState:
        """A right answer makes (or doubles) the stake; a wrong one loses it all."""
        owner = q.owner
        if not right:
            return self._end_turn(_notice(state, "stake_lost", owner, q.stake))
        stake = points if q.round == 0 else q.stake * 2
        q = replace(q, stake=stake, round=q.round + 1)
        state = _notice(state, "stake", owner, stake)
        pawn = state.pawns[owner]
        if (
            q.round >= state.settings.double_or_quit_questions
            or pawn.bulletin + stake >= state.goals[pawn.track]
        ):
            return self._end_turn(self._credit(state, owner, stake))
        return replace(state, phase=Phase.DOUBLE_OR_QUIT, question=q)

    def _on_stop(self, state: DocteRatState, action: Action) -> DocteRatState:
        q = state.question
        assert q is not None
        return self._end_turn(self._credit(state, q.owner, q.stake))

    def _on_double(self, state: DocteRatState, action: Action) -> DocteRatState:
        q = state.question
        assert q is not None
        value = None if q.series in ("bon_mot", "mini_test") else SERIES_POINTS[q.series]
        fresh = replace(q, value=value, mini_kind=None, mini_values=(), index=0, earned=0)
        return self._ask(state, fresh)

    # Que fais-je?
    def _on_draw_card(self, state: DocteRatState, action: Action) -> DocteRatState:
        number = _int(action, "card")
        card = state.deck.card(number)
        if card is None:
            numbers = [c.number for c in state.deck.cards]
            raise InvalidAction(
                f"there is no card {number} in the Que fais-je? deck "
                f"(cards {min(numbers)} to {max(numbers)})"
            )
        return self._follow(_notice(state, "card", state.current, number, card.text), card)

    def _follow(self, state: DocteRatState, card: Card) -> DocteRatState:
        """A card's points, rests and roll-again apply first, in order; then its move or
        question (the first one listed), which may need the table again."""
        seat = state.current
        track = state.pawns[seat].track
        for effect in card.effects:
            if effect.kind == "gain":
                state = self._credit(state, seat, effect.n)
            elif effect.kind == "lose":
                state = self._debit(state, seat, effect.n)
            elif effect.kind == "rest":
                state = _set_pawn(state, seat, rest=state.pawns[seat].rest + effect.n)
                state = _notice(state, "rests", seat, effect.n)
            elif effect.kind == "roll_again":
                state = replace(state, roll_again=True)
        if state.phase is Phase.OVER or state.pawns[seat].track != track:
            # the card completed a goal: nothing more this turn, not even a roll again
            return self._end_turn(replace(state, roll_again=False))
        for effect in card.effects:
            if effect.kind in ("advance", "back"):
                steps = effect.n if effect.kind == "advance" else -effect.n
                return self._move(state, steps, meet=state.settings.card_move_meets_space)
            if effect.kind == "question" and effect.series:
                value = None if effect.series == "bon_mot" else SERIES_POINTS[effect.series]
                return self._ask(state, Question(effect.series, "card", seat, seat, value))
        return self._end_turn(state)

    # cheating
    def _on_infraction(self, state: DocteRatState, action: Action) -> DocteRatState:
        seat = _int(action, "seat", range(len(state.seats)))
        pawn = state.pawns[seat]
        count = pawn.infractions + 1
        if count <= state.settings.free_warnings:
            return _notice(_set_pawn(state, seat, infractions=count), "warning", seat, count)
        state = _set_pawn(state, seat, infractions=count, rest=pawn.rest + 1)
        return _notice(state, "loses_turn", seat, count)

    # points and turns
    def _credit(self, state: DocteRatState, seat: int, points: int) -> DocteRatState:
        pawn = state.pawns[seat]
        bulletin = pawn.bulletin + points
        state = _notice(state, "points", seat, points)
        if bulletin < state.goals[pawn.track]:
            return _set_pawn(state, seat, bulletin=bulletin)
        if pawn.track == UNIVERSITY:
            state = _set_pawn(state, seat, bulletin=bulletin)
            return _notice(replace(state, phase=Phase.OVER, winner=seat, question=None),
                           "docte_rat", seat, bulletin)
        # Goal reached: at once to the next Entrance arrow, Bulletin back to zero; the pawn
        # waits for its next normal turn (a card's "roll again" is lost).
        state = _set_pawn(state, seat, track=pawn.track + 1, position=ENTRANCE, bulletin=0)
        if seat == state.current:
            state = replace(state, roll_again=False)
        return _notice(state, "goal", seat, pawn.track + 1, TRACKS[pawn.track + 1])

    def _debit(self, state: DocteRatState, seat: int, points: int) -> DocteRatState:
        before = state.pawns[seat].bulletin
        bulletin = before - points
        if not state.settings.negative_bulletin:
            bulletin = max(0, bulletin)
        # the notice says what the Bulletin really lost (nothing below zero)
        return _notice(_set_pawn(state, seat, bulletin=bulletin), "points", seat,
                       bulletin - before)

    def _end_turn(self, state: DocteRatState) -> DocteRatState:
        if state.phase is Phase.OVER:
            return state
        state = replace(state, question=None, choices=(), choice_purpose="", steps=0)
        if state.roll_again:
            state = _notice(state, "roll_again", state.current)
            return replace(state, phase=Phase.ROLL, roll_again=False)
        seat, n = state.current, len(state.seats)
        while True:  # rests and lost turns: each skip uses one up, so this ends
            seat = next_seat(seat, n)
            if state.pawns[seat].rest == 0:
                break
            state = _set_pawn(state, seat, rest=state.pawns[seat].rest - 1)
            state = _notice(state, "skips", seat)
        return replace(state, phase=Phase.ROLL, current=seat)

    # -- for the screen ------------------------------------------------------------------
    def public_view(self, state: DocteRatState) -> dict[str, Any]:
        seats = []
        for i, (seat, pawn) in enumerate(zip(state.seats, state.pawns, strict=True)):
            space = None
            if state.board is not None and pawn.position != ENTRANCE:
                space = codec.dump(state.board.tracks[pawn.track].spaces[pawn.position])
            seats.append({
                "seat": i,
                "name": seat.name,
                "members": list(seat.members),
                "track": TRACKS[pawn.track],
                "track_name": TRACK_NAMES[TRACKS[pawn.track]],
                "position": pawn.position,
                "space": space,
                "bulletin": pawn.bulletin,
                "goal": state.goals[pawn.track],
                "rest": pawn.rest,
                "infractions": pawn.infractions,
                "colour": state.colours[i] if i < len(state.colours) else PAWN_COLOURS[i],
            })
        q = state.question
        question = None
        if q is not None and state.phase in (Phase.QUESTION, Phase.DOUBLE_OR_QUIT,
                                             Phase.MINI_TEST_CARD):
            question = {
                "series": q.series,
                "purpose": q.purpose,
                "owner": q.owner,
                "answering": q.answering,
                "value": q.value,
                "points_if_right": q.points() if q.value is not None else None,
                "call": q.call,
                "in_call": q.in_call,
                "callers_left": list(q.callers),
                "mini_kind": q.mini_kind,
                "mini_values": list(q.mini_values),
                "index": q.index,
                "earned": q.earned,
                "round": q.round,
                "stake": q.stake,
            }
        return {
            "mode": "board" if state.board is not None else "free",
            "board_is_default": bool(state.board and state.board.default),
            "goals": list(state.goals),
            "seats": seats,
            "current": state.current,
            "phase": state.phase.value,
            "roll_off": {"contenders": list(state.contenders), "totals": list(state.rolloff)},
            "last_roll": list(state.last_roll),
            "steps": state.steps,
            "choices": list(state.choices),
            "question": question,
            "roll_again": state.roll_again,
            "winner": state.winner,
            "notices": [codec.dump(n) for n in state.notices],
        }

    def describe(self, action: Action, state: DocteRatState | None = None) -> str:
        who = "The table"
        if state is not None and action.player is not None and action.player < len(state.seats):
            who = state.seats[action.player].name
        kind = action.type
        if kind == "roll":
            dice = action.arg("dice", ())
            return f"{who} rolled {' and '.join(str(d) for d in dice)}"
        if kind == "answer":
            verdict = "right" if action.arg("correct") else "wrong"
            return f"{who}: {verdict} answer"
        if kind == "landed":
            space = action.arg("space") or {}
            return f"{who} landed on {space.get('type', '?')}"
        if kind == "choose_series":
            return f"{who} chose {action.arg('series')}"
        if kind == "draw_card":
            return f"{who} drew Que fais-je? card {action.arg('card')}"
        if kind == "mini_test_card":
            return f"Mini-Test card: {action.arg('kind')}"
        if kind == "infraction":
            seat = action.arg("seat")
            name = state.seats[seat].name if state and isinstance(seat, int) and 0 <= seat < len(
                state.seats) else f"seat {seat}"
            return f"Infraction by {name}"
        return f"{who}: {kind.replace('_', ' ')}"


def _colours(data: Any, n: int) -> tuple[str, ...]:
    """The seats' pawn colours: ``["red", "blue"]``, one per seat, each from PAWN_COLOURS
    and all different; without the option, the first ``n`` colours of the palette."""
    if data is None:
        return PAWN_COLOURS[:n]
    palette = ", ".join(PAWN_COLOURS)
    if isinstance(data, str) or not isinstance(data, Sequence) or len(data) != n:
        raise InvalidAction(f"colours must list one pawn colour per seat ({n}), got {data!r}")
    for seat, colour in enumerate(data):
        if colour not in PAWN_COLOURS:
            raise InvalidAction(
                f"colours[{seat}]: {colour!r} is not a pawn colour; expected one of {palette}"
            )
    twice = sorted({c for c in data if list(data).count(c) > 1})
    if twice:
        raise InvalidAction(
            f"two pawns can't share a colour: {', '.join(twice)} is given to more than one seat"
        )
    return tuple(data)


def _placed_pawns(
    data: Any, n: int, goals: tuple[int, ...], board: Board | None
) -> tuple[Pawn, ...]:
    """Pawns where the table says they are (a game carried on from paper, or a scenario):
    ``[{"track": "college", "position": 4, "bulletin": 35}, ...]``, one per seat."""
    if data is None:
        return (Pawn(),) * n
    if not isinstance(data, tuple) or len(data) != n:
        raise InvalidAction(f"pawns must list one placement per seat ({n}), got {data!r}")
    pawns = []
    for seat, item in enumerate(data):
        where = f"pawns[{seat}]"
        if not isinstance(item, Mapping) or set(item) - {"track", "position", "bulletin"}:
            raise InvalidAction(f"{where}: expected track, position and bulletin, got {item!r}")
        track_key = item.get("track", "school")
        if track_key not in TRACKS:
            raise InvalidAction(f"{where}: track must be one of {', '.join(TRACKS)}")
        track = TRACKS.index(track_key)
        default_position = 0 if track == SCHOOL else ENTRANCE
        position = item.get("position", default_position)
        bulletin = item.get("bulletin", 0)
        last = len(board.tracks[track].spaces) - 1 if board is not None else 0
        lowest_position = 0 if track == SCHOOL else ENTRANCE
        highest_position = last if track == SCHOOL else last - 1
        if board is None:
            highest_position = lowest_position = default_position
        if isinstance(position, bool) or not isinstance(position, int) or not (
            lowest_position <= position <= highest_position
        ):
            raise InvalidAction(
                f"{where}: position must be {lowest_position} to {highest_position} on the "
                f"{track_key} track, got {position!r}"
            )
        if isinstance(bulletin, bool) or not isinstance(bulletin, int) or not (
            0 <= bulletin < goals[track]
        ):
            raise InvalidAction(
                f"{where}: bulletin must be 0 to {goals[track] - 1} on the {track_key} track "
                f"(its goal is {goals[track]}), got {bulletin!r}"
            )
        pawns.append(Pawn(track=track, position=position, bulletin=bulletin))
    return tuple(pawns)


def landing_types(track: int) -> tuple[str, ...]:
    """Space types a pawn on ``track`` may report in board-free mode."""
    common = SERIES + ("carte_blanche", "duo", "dilemme", "que_fais_je", "rest", "bonus",
                       "quitte_ou_double")
    return ("start",) + common if track == SCHOOL else common + ("exit",)


def landing_options(track: int) -> list[Space]:
    """One space of each kind a board-free table may tap (with the usual parameters)."""
    out = []
    for kind in landing_types(track):
        if kind == "bonus":
            out.append(Space(kind, bonus=5))
        else:
            out.append(Space(kind))
        if kind in CALLABLE_SERIES:
            out += [Space(kind, call=d) for d in CALL_DIRECTIONS]
    return out


def _set_pawn(state: DocteRatState, seat: int, **changes: Any) -> DocteRatState:
    pawns = list(state.pawns)
    pawns[seat] = replace(pawns[seat], **changes)
    return replace(state, pawns=tuple(pawns))


def _notice(state: DocteRatState, kind: str, seat: int | None, value: int = 0,
            detail: str = "") -> DocteRatState:
    return replace(state, notices=state.notices + (Notice(kind, seat, value, detail),))


ENGINE = DocteRat()
