"""Le Docte Rat at the table, in the rulebook's words: the pawns and teams, who starts, the
three tracks and their dice, goals, the Exit and repeating the year, the Docte Rat, cheating,
the board-free mode, bad input, undo, and whole shortened games.

The spaces themselves (Call to All, Mini-Test, Duo, Que fais-je? ...) are in
test_scenarios_spaces.py. Boards come from ``board_with``: Petite Colle on every space of the
Schoolchildren's Path (0 = Start, 33 spaces), Érudition at Saint-Lauréat College (24 spaces,
the last one, 23, is the Exit), Mini-Test at the University of Brilliant People (20 spaces, the
Exit is 19), with the spaces under test put where the dice will land.
"""

from __future__ import annotations

import pytest

from companion.core.engine import Seat, Setup
from companion.games.docte_rat.engine import ENGINE
from companion.games.registry import Registry
from companion.session.journal import Journal
from companion.session.referee import Referee, Rejected
from tests.games.docte_rat.scenario import Table, board_with

PLAIN = board_with()
ENTRANCE = -1  # a pawn on an Entrance arrow, before the first space of its track


# --- 1. Number of players: 1 to 6 pawns, a pawn is a person or a team -----------------------


def test_a_single_player_needs_no_roll_off_and_plays_every_turn():
    table = Table("Alice", board=PLAIN)
    assert table.phase == "ROLL" and table.turn == "Alice"
    table.roll(2, 3)  # Schoolchildren's Path: 5 -> a Petite Colle
    table.right()
    assert table.bulletin("Alice") == 5
    assert table.turn == "Alice" and table.phase == "ROLL"


def test_six_pawns_play_in_turn_clockwise():
    names = ("Alice", "Bob", "Chloé", "Denis", "Emma", "Fanny")
    table = Table(*names, first="Emma", board=PLAIN)
    played = []
    for _ in range(4):
        played.append(table.turn)
        table.roll(1, 2)
        table.wrong()
    assert played == ["Emma", "Fanny", "Alice", "Bob"]


def test_a_seventh_pawn_is_refused():
    referee = Referee(Journal.open(":memory:"), Registry((ENGINE,)))
    seven = Setup.of("Alice", "Bob", "Chloé", "Denis", "Emma", "Fanny", "Gaston", board="free")
    verdict = referee.start(ENGINE.id, seven)
    assert isinstance(verdict, Rejected)
    assert "1 to 6" in verdict.message and "7" in verdict.message


def test_a_team_has_one_pawn_one_answer_and_keeps_its_members_names():
    board = board_with(school={5: "petite_colle call=left"})
    table = Table("Alice", Seat("Les Rats", ("Bob", "Chloé")), "Denis",
                  first="Alice", board=board)
    seats = table.view["view"]["seats"]
    assert [s["name"] for s in seats] == ["Alice", "Les Rats", "Denis"]
    assert seats[1]["members"] == ["Bob", "Chloé"]
    table.roll(2, 3)  # Appel à tous, to the left
    table.wrong()
    # The team answers once, as one pawn, then the round goes on to Denis only.
    assert table.answering == "Les Rats"
    assert table.question["callers_left"] == [table.seat("Denis")]
    table.wrong()
    assert table.answering == "Denis"
    table.wrong()
    assert table.turn == "Les Rats"
    assert [table.bulletin(n) for n in ("Alice", "Les Rats", "Denis")] == [0, 0, 0]


def test_a_team_scores_on_its_one_bulletin():
    table = Table(Seat("Les Rats", ("Bob", "Chloé")), "Alice", first="Les Rats", board=PLAIN)
    table.roll(4, 2)
    assert table.answering == "Les Rats"
    table.right()
    assert table.bulletin("Les Rats") == 5
    assert table.turn == "Alice"


# --- Start of the game: who starts, then clockwise --------------------------------------------


def test_everyone_rolls_and_the_lowest_total_starts_then_clockwise():
    table = Table("Alice", "Bob", "Chloé", board=PLAIN)
    assert table.phase == "ROLL_OFF"
    table.roll_off((6, 5), (1, 2), (4, 4))  # 11, 3, 8: Bob has the lowest number
    assert table.phase == "ROLL" and table.turn == "Bob"
    assert "starts" in table.notices()
    table.roll(2, 3)
    table.wrong()
    assert table.turn == "Chloé"
    table.roll(2, 3)
    table.wrong()
    assert table.turn == "Alice"


def test_a_tie_for_lowest_is_rolled_again_by_the_tied_only():
    table = Table("Alice", "Bob", "Chloé", "Denis", board=PLAIN)
    table.roll_off((2, 1), (6, 6), (1, 2), (5, 5))  # Alice 3, Bob 12, Chloé 3, Denis 10
    assert table.phase == "ROLL_OFF"
    assert table.view["view"]["roll_off"]["contenders"] == [0, 2]
    # Bob is out of it: he doesn't roll again.
    message = table.rejected("roll", player=table.seat("Bob"), dice=[1, 1])
    assert "turn" in message
    assert table.view["current_player"] == table.seat("Alice")
    table.roll_off((5, 5), (3, 3))  # Alice 10, Chloé 6
    assert table.phase == "ROLL" and table.turn == "Chloé"
    table.roll(1, 1)
    table.wrong()
    assert table.turn == "Denis"  # clockwise from Chloé


def test_a_tie_again_is_rolled_again_until_one_is_lowest():
    table = Table("Alice", "Bob", board=PLAIN)
    table.roll_off((1, 1), (1, 1))  # 2 and 2: tie
    assert table.phase == "ROLL_OFF"
    table.roll_off((3, 3), (4, 2))  # 6 and 6: tie again
    assert table.phase == "ROLL_OFF"
    assert "rolloff_tie" in table.notices()
    table.roll_off((6, 6), (1, 1))
    assert table.phase == "ROLL" and table.turn == "Bob"


# --- On the Schoolchildren's Path: the total of the two dice ----------------------------------


def test_on_the_schoolchildren_path_the_pawn_moves_by_the_sum_of_the_dice():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN)
    table.roll(5, 3)
    assert table.position("Alice") == 8
    assert table.answering == "Alice"
    assert table.question["series"] == "petite_colle"
    assert table.question["points_if_right"] == 5


def test_no_second_turn_for_doubles_on_the_schoolchildren_path():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN)
    table.roll(4, 4)
    assert table.position("Alice") == 8  # the total: no stay/advance choice
    table.right()
    assert table.turn == "Bob" and table.phase == "ROLL"


def test_no_stay_or_advance_on_the_schoolchildren_path():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN)
    for choice in ("stay", "advance"):
        message = table.rejected(choice)
        assert "Schoolchildren's Path" in message
        assert "roll" in message
    table.roll(3, 3)
    assert table.position("Alice") == 6
    table.rejected("stay")  # the pawn has moved by the total; a question is pending
    assert table.answering == "Alice"


def test_the_schoolchildren_path_loops_past_the_start_space():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("school", 30, 10)})
    table.roll(2, 3)  # 30 + 5 on a 33-space circuit
    assert table.position("Alice") == 2
    assert table.track("Alice") == "school"
    table.right()
    assert table.bulletin("Alice") == 15


def test_landing_on_the_start_space_asks_nothing():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("school", 21, 10)})
    table.roll(6, 6)
    assert table.position("Alice") == 0
    assert table.question is None
    assert table.turn == "Bob" and table.bulletin("Alice") == 10


# --- At the College and the University: the difference of the dice ----------------------------


def test_at_saint_laureat_college_the_pawn_moves_by_the_difference():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("college", 3, 0)})
    table.roll(6, 2)
    assert table.position("Alice") == 7
    assert table.question["series"] == "erudition"
    assert table.question["points_if_right"] == 10


def test_at_the_university_the_pawn_moves_by_the_difference():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("university", ENTRANCE, 0)})
    table.roll(1, 5)
    assert table.position("Alice") == 3
    assert table.phase == "MINI_TEST_CARD"


def test_college_doubles_stay_meets_the_same_space_again():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("college", 4, 10)})
    table.roll(5, 5)
    assert table.phase == "DOUBLES" and table.position("Alice") == 4
    table.stay()
    assert table.position("Alice") == 4
    assert table.answering == "Alice" and table.question["series"] == "erudition"
    table.right()
    assert table.bulletin("Alice") == 20
    assert table.turn == "Bob"


def test_college_doubles_advance_by_one_die():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("college", 4, 10)})
    table.roll(5, 5)
    table.advance()
    assert table.position("Alice") == 9
    assert table.answering == "Alice"


def test_university_doubles_offer_the_same_choice():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("university", 2, 0)})
    table.roll(3, 3)
    assert table.phase == "DOUBLES"
    table.advance()
    assert table.position("Alice") == 5 and table.phase == "MINI_TEST_CARD"


def test_staying_on_the_entrance_arrow_ends_the_turn():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("college", ENTRANCE, 10)})
    table.roll(2, 2)
    table.stay()
    assert table.position("Alice") == ENTRANCE
    assert table.question is None
    assert table.turn == "Bob" and table.phase == "ROLL"
    assert table.bulletin("Alice") == 10


# --- Reaching a goal --------------------------------------------------------------------------


def test_reaching_25_sends_the_pawn_to_the_college_entrance_with_a_zero_bulletin():
    board = board_with(school={5: "erudition"})
    table = Table("Alice", "Bob", first="Alice", board=board,
                  pawns={"Alice": ("school", 0, 20)})
    table.roll(2, 3)
    table.right()  # 20 + 10 = 30: the 5 points beyond the goal are not carried over
    assert table.track("Alice") == "college"
    assert table.position("Alice") == ENTRANCE
    assert table.bulletin("Alice") == 0
    assert table.pawn("Alice")["goal"] == 50
    assert "goal" in table.notices()
    # Wait for your normal turn: Bob plays now.
    assert table.turn == "Bob" and table.phase == "ROLL"


def test_after_reaching_the_college_the_next_normal_turn_uses_the_difference():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("school", 0, 20)})
    table.roll(1, 4)
    table.right()
    assert table.track("Alice") == "college"
    table.roll(2, 2)  # Bob
    table.wrong()
    table.roll(6, 2)  # Alice, from the Entrance arrow: 6 - 2 = 4 -> space 3
    assert table.position("Alice") == 3
    assert table.question["series"] == "erudition"


def test_reaching_50_sends_the_pawn_to_the_university_entrance():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("college", 2, 45)})
    table.roll(6, 5)
    table.right()
    assert (table.track("Alice"), table.position("Alice"), table.bulletin("Alice")) == (
        "university", ENTRANCE, 0)
    assert table.pawn("Alice")["goal"] == 75
    assert table.turn == "Bob"


def test_a_mini_test_stops_once_the_goal_is_reached():
    board = board_with(college={3: "mini_test"})
    table = Table("Alice", "Bob", first="Alice", board=board,
                  pawns={"Alice": ("college", ENTRANCE, 45)})
    table.roll(5, 1)
    table.mini_test("questions", [5, 10])
    table.right()  # 45 + 5 = 50: no second question once the goal is reached
    assert table.track("Alice") == "university" and table.bulletin("Alice") == 0
    assert table.question is None
    assert table.turn == "Bob" and table.phase == "ROLL"


def test_quitte_ou_double_banks_the_stake_without_offering_double_at_the_goal():
    board = board_with(college={3: "quitte_ou_double"})
    table = Table("Alice", "Bob", first="Alice", board=board,
                  pawns={"Alice": ("college", ENTRANCE, 40)})
    table.roll(5, 1)
    table.right()  # 40 + 10 = 50
    assert table.track("Alice") == "university" and table.bulletin("Alice") == 0
    assert table.turn == "Bob"
    table.rejected("double")


# --- The Exit: repeating the year -------------------------------------------------------------


def test_landing_on_the_college_exit_repeats_the_year_and_rolls_again_at_once():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("college", 20, 20)})
    table.roll(6, 3)  # 20 + 3 = 23, the Exit
    assert table.position("Alice") == ENTRANCE
    assert table.bulletin("Alice") == 15
    assert "repeat_year" in table.notices()
    assert table.turn == "Alice" and table.phase == "ROLL"
    table.roll(4, 2)  # the privilege of rolling again at once
    assert table.position("Alice") == 1 and table.answering == "Alice"


def test_passing_beyond_the_college_exit_repeats_the_year():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("college", 21, 30)})
    table.roll(6, 1)  # 21 + 5 is past the Exit
    assert (table.track("Alice"), table.position("Alice"), table.bulletin("Alice")) == (
        "college", ENTRANCE, 25)
    assert table.turn == "Alice"


def test_stopping_just_before_the_exit_stays_at_the_college():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("college", 20, 20)})
    table.roll(5, 3)
    assert table.position("Alice") == 22
    assert table.answering == "Alice" and table.bulletin("Alice") == 20


def test_advancing_by_one_die_onto_the_exit_repeats_the_year():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("college", 19, 12)})
    table.roll(4, 4)
    table.advance()
    assert table.position("Alice") == ENTRANCE and table.bulletin("Alice") == 7
    assert table.turn == "Alice" and table.phase == "ROLL"


def test_repeating_the_year_does_not_take_the_bulletin_below_zero():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("college", 20, 3)})
    table.roll(6, 3)
    assert table.bulletin("Alice") == 0


def test_repeating_the_year_may_go_below_zero_when_the_table_says_so():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("college", 20, 3)},
                  settings={"negative_bulletin": True})
    table.roll(6, 3)
    assert table.bulletin("Alice") == -2


def test_passing_the_university_exit_repeats_the_year_too():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("university", 17, 30)})
    table.roll(6, 4)
    assert (table.track("Alice"), table.position("Alice"), table.bulletin("Alice")) == (
        "university", ENTRANCE, 25)
    assert table.turn == "Alice" and table.phase == "ROLL"


# --- The Docte Rat: first to 75 at the University -----------------------------------------------


def test_the_first_to_75_at_the_university_is_docte_rat_and_the_game_ends_at_once():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("university", 0, 65), "Bob": ("university", 0, 70)})
    table.roll(4, 1)
    table.mini_test("single")
    table.right()  # 65 + 15 = 80
    assert table.over and table.winner == "Alice"
    assert table.phase == "OVER"
    assert "docte_rat" in table.notices()
    assert table.bulletin("Alice") == 80
    assert "over" in table.rejected("roll", dice=[1, 2])
    table.rejected("infraction", player=table.seat("Bob"), seat=table.seat("Bob"))


def test_a_mini_test_that_makes_a_docte_rat_asks_no_more_questions():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN,
                  pawns={"Alice": ("university", 0, 65)})
    table.roll(4, 2)
    table.mini_test("questions", [5, 5, 5])
    table.right()
    assert not table.over and table.answering == "Alice"
    table.right()  # 75
    assert table.over and table.winner == "Alice"
    assert table.question is None
    table.rejected("answer", correct=True)


def test_a_bonus_space_can_make_a_docte_rat():
    board = board_with(university={4: "bonus bonus=10"})
    table = Table("Alice", "Bob", first="Alice", board=board,
                  pawns={"Alice": ("university", 0, 70)})
    table.roll(6, 2)
    assert table.over and table.winner == "Alice"


def test_a_pawn_on_the_schoolchildren_path_can_never_win():
    # Odd goals on purpose: the Schoolchildren's Path needs 30, the University only 10.
    board = board_with(school={5: "duo"})
    table = Table("Alice", "Bob", first="Alice", board=board, goals=(30, 10, 10),
                  pawns={"Alice": ("school", 0, 25)})
    table.roll(2, 3)
    table.right()
    table.right()  # Duo: 25 + 15 = 40, past every goal
    assert not table.over and table.winner is None
    assert table.track("Alice") == "college" and table.bulletin("Alice") == 0
    assert table.turn == "Bob"


def test_a_college_pawn_can_never_win():
    board = board_with(college={3: "erudition multiplier=3"})
    table = Table("Alice", "Bob", first="Alice", board=board, goals=(25, 20, 10),
                  pawns={"Alice": ("college", ENTRANCE, 15)})
    table.roll(5, 1)
    table.right()  # 15 + 30 = 45
    assert not table.over
    assert table.track("Alice") == "university" and table.bulletin("Alice") == 0


def test_a_shortened_game_has_goals_of_20_30_40():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN, goals=(20, 30, 40),
                  pawns={"Alice": ("school", 0, 15), "Bob": ("college", 0, 20)})
    assert table.view["view"]["goals"] == [20, 30, 40]
    assert table.pawn("Alice")["goal"] == 20
    table.roll(1, 2)
    table.right()  # 20: the shortened goal of the Schoolchildren's Path
    assert table.track("Alice") == "college" and table.pawn("Alice")["goal"] == 30
    table.roll(3, 2)  # Bob: 0 + 1
    table.right()  # 30
    assert table.track("Bob") == "university" and table.pawn("Bob")["goal"] == 40


def test_goals_below_5_are_refused():
    referee = Referee(Journal.open(":memory:"), Registry((ENGINE,)))
    verdict = referee.start(ENGINE.id, Setup.of("Alice", board="free", goals=[3, 10, 10]))
    assert isinstance(verdict, Rejected)
    assert "at least 5" in verdict.message


# --- Cheating ---------------------------------------------------------------------------------


def test_a_first_infraction_is_a_simple_warning():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN)
    table.infraction("Bob")
    assert "warning" in table.notices()
    assert table.pawn("Bob")["infractions"] == 1
    table.roll(1, 2)
    table.wrong()
    assert table.turn == "Bob"  # no turn lost


def test_each_further_infraction_costs_a_normal_turn():
    table = Table("Alice", "Bob", "Chloé", first="Alice", board=PLAIN)
    table.infraction("Bob")
    table.infraction("Bob")
    assert "loses_turn" in table.notices()
    table.roll(1, 2)
    table.wrong()
    assert "skips" in table.notices()
    assert table.turn == "Chloé"  # Bob's turn is lost
    table.roll(1, 2)
    table.wrong()
    assert table.turn == "Alice"
    table.roll(1, 2)
    table.wrong()
    assert table.turn == "Bob"  # only once
    table.infraction("Bob")  # a third: another turn lost
    table.roll(1, 2)
    table.wrong()
    assert table.turn == "Chloé"


def test_an_infraction_may_be_reported_during_a_call_to_all():
    board = board_with(school={5: "petite_colle call=left"})
    table = Table("Alice", "Bob", "Chloé", first="Alice", board=board)
    table.roll(2, 3)
    table.wrong()
    assert table.answering == "Bob"
    table.infraction("Chloé")  # whispering the answer
    table.infraction("Chloé")
    assert table.answering == "Bob"  # the question is still Bob's to answer
    table.right()
    assert table.bulletin("Bob") == 5
    table.roll(1, 2)  # Bob
    table.wrong()
    assert table.turn == "Alice"  # Chloé loses her turn


# --- Board-free mode --------------------------------------------------------------------------


def test_board_free_the_companion_announces_the_move_and_the_table_taps_the_space():
    table = Table("Alice", "Bob", "Chloé", first="Alice", board="free")
    table.roll(3, 4)
    assert table.phase == "LANDING" and table.view["view"]["steps"] == 7
    assert table.view["view"]["mode"] == "free"
    table.landed("erudition", call="left")
    table.wrong()
    assert table.answering == "Bob"
    table.right()
    assert table.bulletin("Bob") == 10
    assert table.turn == "Bob"


def test_board_free_college_moves_by_the_difference():
    table = Table("Alice", "Bob", first="Alice", board="free",
                  pawns={"Alice": ("college", ENTRANCE, 10)})
    table.roll(6, 2)
    assert table.phase == "LANDING" and table.view["view"]["steps"] == 4
    table.landed("petite_colle")
    table.right()
    assert table.bulletin("Alice") == 15


def test_board_free_exit_at_the_college_repeats_the_year():
    table = Table("Alice", "Bob", first="Alice", board="free",
                  pawns={"Alice": ("college", ENTRANCE, 10)})
    table.roll(6, 2)
    table.landed("exit")
    assert table.bulletin("Alice") == 5
    assert "repeat_year" in table.notices()
    assert table.turn == "Alice" and table.phase == "ROLL"


def test_board_free_doubles_at_the_college_announce_one_die():
    table = Table("Alice", "Bob", first="Alice", board="free",
                  pawns={"Alice": ("college", ENTRANCE, 10)})
    table.roll(3, 3)
    assert table.phase == "DOUBLES"
    table.advance()
    assert table.phase == "LANDING" and table.view["view"]["steps"] == 3


def test_board_free_there_is_no_exit_on_the_schoolchildren_path():
    table = Table("Alice", "Bob", first="Alice", board="free")
    table.roll(2, 3)
    message = table.rejected("landed", space={"type": "exit"})
    assert "expected one of" in message
    assert "petite_colle" in message and "start" in message


def test_board_free_a_mini_test_is_never_a_call_to_all():
    table = Table("Alice", "Bob", first="Alice", board="free",
                  pawns={"Alice": ("university", ENTRANCE, 0)})
    table.roll(6, 2)
    message = table.rejected("landed", space={"type": "mini_test", "call": "left"})
    assert "Call to All" in message


def test_board_free_staying_on_the_entrance_arrow_ends_the_turn():
    table = Table("Alice", "Bob", first="Alice", board="free",
                  pawns={"Alice": ("college", ENTRANCE, 10)})
    table.roll(6, 2)
    table.landed("exit")  # repeat the year: back on the Entrance arrow, roll again at once
    assert table.turn == "Alice"
    table.roll(4, 4)  # doubles on the Entrance arrow
    table.stay()
    assert table.turn == "Bob" and table.phase == "ROLL"


def test_board_free_a_card_move_meets_no_space_when_the_table_says_so():
    table = Table("Alice", "Bob", first="Alice", board="free",
                  settings={"card_move_meets_space": False})
    table.roll(1, 3)
    table.landed("que_fais_je")
    table.draw(1)  # advance 3
    assert table.turn == "Bob" and table.phase == "ROLL"


# --- Bad input: rejected, with what was expected, and nothing recorded -------------------------


def test_a_die_showing_7_is_refused():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN)
    message = table.rejected("roll", dice=[7, 1])
    assert "1 to 6" in message
    assert table.position("Alice") == 0 and table.turn == "Alice"


def test_an_answer_with_no_question_pending_is_refused():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN)
    table.roll(1, 2)
    table.right()
    # One question card per normal turn: the turn has passed to Bob.
    message = table.rejected("answer", correct=True)
    assert "expected roll" in message
    assert table.bulletin("Alice") == 5


def test_an_answer_from_someone_else_than_the_one_questioned_is_refused():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN)
    table.roll(1, 2)
    message = table.rejected("answer", player=table.seat("Bob"), correct=True)
    assert "turn" in message
    assert table.answering == "Alice"


def test_a_bon_mot_answer_needs_its_points():
    table = Table("Alice", "Bob", first="Alice", board=board_with(school={4: "bon_mot"}))
    table.roll(1, 3)
    assert "points" in table.rejected("answer", correct=True)
    message = table.rejected("answer", correct=True, points=7)
    assert "5" in message and "10" in message


def test_an_unknown_que_fais_je_card_is_refused():
    table = Table("Alice", "Bob", first="Alice", board=board_with(school={4: "que_fais_je"}))
    table.roll(1, 3)
    message = table.rejected("draw_card", card=99)
    assert "99" in message and "1 to 24" in message
    assert table.phase == "DRAW_CARD"


def test_a_series_not_offered_by_a_dilemme_is_refused():
    table = Table("Alice", "Bob", first="Alice", board=board_with(school={4: "dilemme"}))
    table.roll(1, 3)
    message = table.rejected("choose_series", series="mini_test")
    assert "petite_colle" in message and "erudition" in message


# --- Undo ---------------------------------------------------------------------------------------


def test_undo_then_re_enter_corrects_a_misread_roll():
    table = Table("Alice", "Bob", first="Alice", board=board_with(school={6: "rest"}))
    table.roll(3, 3)  # the camera read a 3; the die shows a 4
    assert table.turn == "Bob"  # Alice went to rest on space 6
    table.undo()
    assert table.position("Alice") == 0 and table.turn == "Alice"
    table.roll(3, 4)
    assert table.position("Alice") == 7
    assert table.pawn("Alice")["rest"] == 0
    assert table.answering == "Alice"


def test_undo_corrects_a_mis_tapped_answer():
    table = Table("Alice", "Bob", first="Alice", board=PLAIN)
    table.roll(1, 2)
    table.right()
    table.undo()
    assert table.answering == "Alice" and table.bulletin("Alice") == 0
    table.wrong()
    assert table.bulletin("Alice") == 0 and table.turn == "Bob"


# --- Whole games --------------------------------------------------------------------------------


def test_alice_alone_plays_a_shortened_game_through_the_three_tracks():
    table = Table("Alice", board=PLAIN, goals=(20, 30, 40))
    # Schoolchildren's Path: four Petite Colles.
    for dice in ((2, 3), (4, 1), (3, 2), (1, 4)):
        table.roll(*dice)
        table.right()
    assert (table.track("Alice"), table.bulletin("Alice")) == ("college", 0)
    # Saint-Lauréat College: three Érudition.
    for dice in ((4, 1), (5, 2), (6, 3)):
        table.roll(*dice)
        table.right()
    assert (table.track("Alice"), table.bulletin("Alice")) == ("university", 0)
    # University of Brilliant People: three single-question Mini-Tests.
    table.roll(3, 1)
    table.mini_test("single")
    table.right()
    table.roll(2, 1)
    table.mini_test("clues")
    table.wrong()
    table.right()  # second clue: 10
    assert table.bulletin("Alice") == 25
    table.roll(5, 4)
    table.mini_test("single")
    table.right()  # 40
    assert table.over and table.winner == "Alice"
    assert table.view["outcome"]["reason"] == "Alice is Docte Rat"


def test_alice_and_les_rats_play_a_shortened_game_to_the_end():
    board = board_with(school={5: "petite_colle call=left", 8: "duo"},
                       college={3: "erudition call=right"})
    table = Table("Alice", Seat("Les Rats", ("Bob", "Chloé")), board=board, goals=(20, 30, 40))
    table.roll_off((4, 4), (1, 2))  # Alice 8, Les Rats 3: Les Rats begin
    assert table.turn == "Les Rats"

    # Schoolchildren's Path
    table.roll(2, 3)  # Appel à tous to the left
    table.wrong()
    assert table.answering == "Alice"
    table.right()
    assert table.bulletin("Alice") == 5 and table.turn == "Alice"
    table.roll(4, 4)  # Duo; doubles give no extra turn
    table.right()
    table.right()  # 5 + 15 = 20: the goal
    assert (table.track("Alice"), table.bulletin("Alice")) == ("college", 0)
    assert table.turn == "Les Rats"
    table.roll(1, 2)  # Duo too
    table.right()
    table.right()
    assert table.bulletin("Les Rats") == 15

    # Saint-Lauréat College
    table.roll(6, 2)  # Alice: 4 -> space 3, Appel à tous to the right
    table.wrong()
    assert table.answering == "Les Rats"
    table.right()  # Les Rats, still on the Path, complete their goal with Alice's question
    assert (table.track("Les Rats"), table.position("Les Rats")) == ("college", ENTRANCE)
    assert table.turn == "Les Rats"
    table.roll(5, 1)
    table.right()
    table.roll(3, 1)  # Alice: space 5
    table.right()
    table.roll(6, 5)  # Les Rats: space 4
    table.right()
    table.roll(2, 1)  # Alice: space 6
    table.right()
    assert [table.bulletin(n) for n in ("Alice", "Les Rats")] == [20, 20]
    table.roll(4, 2)  # Les Rats: space 6
    table.right()
    assert table.track("Les Rats") == "university"
    table.roll(6, 1)  # Alice: space 11
    table.right()
    assert table.track("Alice") == "university"

    # University of Brilliant People
    table.roll(4, 4)  # Les Rats: doubles, advance by one die
    table.advance()
    table.mini_test("questions", [5, 10])
    table.wrong()
    table.right()  # entitled to the second question after a miss
    assert table.bulletin("Les Rats") == 10
    table.roll(3, 2)  # Alice: space 0
    table.mini_test("single")
    table.right()
    table.roll(6, 3)  # Les Rats: space 6
    table.mini_test("clues")
    table.right()  # first clue: 15
    table.roll(5, 3)  # Alice: space 2
    table.mini_test("single")
    table.right()
    assert [table.bulletin(n) for n in ("Alice", "Les Rats")] == [30, 25]
    table.roll(2, 1)  # Les Rats: space 7
    table.mini_test("single")
    table.right()  # 40
    assert table.over and table.winner == "Les Rats"
    assert table.track("Alice") == "university" and table.bulletin("Alice") == 30
    table.rejected("roll", dice=[1, 2])


def test_a_board_file_with_76_spaces_is_refused_and_no_game_starts(tmp_path) -> None:
    from companion.core.engine import Setup
    from companion.games.docte_rat.engine import ENGINE
    from companion.games.registry import Registry
    from companion.resources import asset
    from companion.session.journal import Journal
    from companion.session.referee import Referee, RejectCode

    lines = asset("docte_rat", "board.txt").read_text(encoding="utf-8").splitlines()
    lines.remove("dilemme")  # one space forgotten while copying the board
    board = tmp_path / "our-board.txt"
    board.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with Journal.open(":memory:") as journal:
        referee = Referee(journal, Registry((ENGINE,)))
        verdict = referee.start(ENGINE.id, Setup.of("Alice", "Bob", board_file=str(board)))
        assert verdict.code is RejectCode.INVALID
        assert "our-board.txt: the board has 76 spaces" in verdict.message
        assert journal.sessions() == []
        missing = referee.start(ENGINE.id, Setup.of("Alice", board_file=str(tmp_path / "no.txt")))
        assert "does not exist" in missing.message


def test_a_tables_own_board_file_is_played(tmp_path) -> None:
    from companion.core.engine import Setup
    from companion.games.docte_rat.engine import ENGINE
    from companion.resources import asset

    lines = asset("docte_rat", "board.txt").read_text(encoding="utf-8").splitlines()
    start = lines.index("start")
    lines[start + 2] = "bonus bonus=7"  # our board: a bonus two spaces after the Start
    lines[lines.index("default yes")] = "default no"  # as the file's header asks
    board = tmp_path / "our-board.txt"
    board.write_text("\n".join(lines) + "\n", encoding="utf-8")
    table = Table("Alice", "Bob", first="Alice")
    table.referee.close_session()
    verdict = table.referee.start(
        ENGINE.id, Setup.of("Alice", "Bob", first=0, board_file=str(board))
    )
    assert verdict.state_id == 0
    table.roll(1, 1)  # Schoolchildren's Path: 2 spaces, onto our bonus space
    assert table.bulletin("Alice") == 7 and table.turn == "Bob"
    assert table.view["view"]["board_is_default"] is False


@pytest.mark.parametrize(
    ("space", "words"),
    [
        ({"type": "rest", "turns": -1}, 'bad value "-1" for turns'),
        ({"type": "bonus", "bonus": -20}, 'bad value "-20" for bonus'),
        ({"type": "petite_colle", "multiplier": 0}, 'bad value "0" for multiplier'),
        ({"type": "quitte_ou_double", "series": "teleport"}, 'bad value "teleport" for series'),
        ({"type": "mini_test", "call": "left"}, "call= is not allowed on a mini_test space"),
        ({"type": "erudition", "colour": "red"}, "unknown field(s) colour"),
    ],
)
def test_board_free_a_space_tapped_wrong_is_refused_by_the_board_rules(space, words) -> None:
    table = Table("Alice", "Bob", first="Alice", board="free")
    table.roll(1, 2)
    assert words in table.rejected("landed", space=space)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"settings": {"negativ_bulletin": True}}, "unknown field(s) negativ_bulletin"),
        ({"board": {"name": "x", "tracks": [
            {"key": "school", "name": "s", "spaces": [{"type": "start"}, {"type": "duo"}]},
            {"key": "college", "name": "c", "spaces": [{"type": "exit"}]},
            {"key": "university", "name": "u", "spaces": [{"type": "exit"}]},
        ]}}, "setup board"),
        ({"colour": "red"}, "unknown Docte Rat option(s) ['colour']"),
    ],
)
def test_a_setup_with_a_typo_or_a_broken_inline_board_is_refused(options, words) -> None:
    from companion.core.engine import Setup
    from companion.games.docte_rat.engine import ENGINE
    from companion.games.registry import Registry
    from companion.session.journal import Journal
    from companion.session.referee import Referee, RejectCode

    with Journal.open(":memory:") as journal:
        verdict = Referee(journal, Registry((ENGINE,))).start(
            ENGINE.id, Setup.of("Alice", "Bob", **options)
        )
        assert verdict.code is RejectCode.INVALID and words in verdict.message
        assert journal.sessions() == []


def test_a_bon_mot_worth_5_point_0_is_refused() -> None:
    table = Table("Alice", "Bob", first="Alice", board=board_with(school={2: "bon_mot"}))
    table.roll(1, 1)
    assert "5 or 10" in table.rejected("answer", correct=True, points=5.0)


def test_a_roll_off_tie_announces_the_tied_total() -> None:
    table = Table("Alice", "Bob", "Chloé")
    table.roll_off((1, 2), (2, 1), (6, 6))
    tie = [n for n in table.view["view"]["notices"] if n["kind"] == "rolloff_tie"]
    assert tie == [{"kind": "rolloff_tie", "seat": None, "value": 3, "detail": "0,1"}]


def test_a_loss_at_zero_announces_no_points_lost() -> None:
    table = Table("Alice", "Bob", first="Alice", board=board_with(school={2: "dilemme"}))
    table.roll(1, 1)
    table.choose("erudition")
    table.wrong()
    points = [n["value"] for n in table.view["view"]["notices"] if n["kind"] == "points"]
    assert points == [0] and table.bulletin("Alice") == 0
