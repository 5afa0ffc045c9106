"""Pawn colours: the setup option ``colours`` (one per seat, from the engine's palette, all
different), shown in every seat of the public view and kept through the journal."""

from __future__ import annotations

import pytest

from companion.core.engine import Seat, Setup
from companion.core.errors import InvalidAction
from companion.games.docte_rat.engine import ENGINE, PAWN_COLOURS
from companion.games.registry import default_registry
from companion.session.journal import Journal
from companion.session.referee import Accepted, Referee, Rejected


def seat_colours(setup: Setup) -> list[str]:
    state = ENGINE.new_state(ENGINE.prepare_setup(setup))
    return [seat["colour"] for seat in ENGINE.public_view(state)["seats"]]


def test_the_table_gives_each_pawn_its_colour() -> None:
    setup = Setup.of("Alice", "Bob", "Chloé", colours=["green", "black", "yellow"],
                     board="free")
    assert seat_colours(setup) == ["green", "black", "yellow"]


def test_without_the_option_the_pawns_take_the_palette_in_seat_order() -> None:
    assert seat_colours(Setup.of("Alice", "Bob", board="free")) == list(PAWN_COLOURS[:2])
    six = Setup.of(*(f"P{i}" for i in range(6)), board="free")
    assert seat_colours(six) == list(PAWN_COLOURS[:6])
    assert len(set(PAWN_COLOURS)) == len(PAWN_COLOURS) >= 6  # enough for a full table


def test_a_team_keeps_its_colour_and_its_members() -> None:
    setup = Setup((Seat("Alice"), Seat("Les Rats", ("Bob", "Chloé"))),
                  {"colours": ["purple", "orange"], "board": "free"})
    state = ENGINE.new_state(ENGINE.prepare_setup(setup))
    team = ENGINE.public_view(state)["seats"][1]
    assert (team["name"], team["members"], team["colour"]) == (
        "Les Rats", ["Bob", "Chloé"], "orange")


@pytest.mark.parametrize(("colours", "message"), [
    (["red", "red"], "red is given to more than one seat"),
    (["red", "pink"], "'pink' is not a pawn colour"),
    (["red"], "one pawn colour per seat (2)"),
    (["red", "blue", "green"], "one pawn colour per seat (2)"),
    ("red", "one pawn colour per seat (2)"),
    ([1, 2], "1 is not a pawn colour"),
])
def test_wrong_colours_are_refused_with_what_was_expected(colours, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidAction) as caught:
        ENGINE.new_state(ENGINE.prepare_setup(Setup.of("Alice", "Bob", colours=colours,
                                                       board="free")))
    assert message in str(caught.value)


def test_the_referee_refuses_a_bad_palette_and_journals_nothing() -> None:
    with Journal.open(":memory:") as journal:
        referee = Referee(journal, default_registry())
        verdict = referee.start("docte-rat", Setup.of("Alice", "Bob", colours=["blue", "blue"]))
        assert isinstance(verdict, Rejected)
        assert "blue" in verdict.message
        assert referee.session_id is None and journal.last_unfinished() is None


def test_colours_survive_a_restart_from_the_journal() -> None:
    with Journal.open(":memory:") as journal:
        registry = default_registry()
        referee = Referee(journal, registry)
        setup = Setup.of("Alice", "Bob", colours=["white", "red"])
        assert isinstance(referee.start("docte-rat", setup), Accepted)
        sid = referee.session_id
        assert sid is not None
        again = Referee(journal, registry)
        assert isinstance(again.resume(sid), Accepted)
        assert [s["colour"] for s in again.view()["view"]["seats"]] == ["white", "red"]
