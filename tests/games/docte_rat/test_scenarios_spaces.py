"""Le Docte Rat's spaces, as the Game Guide and the rulebook tell them: Petite Colle,
Érudition, Mini-Test, Bon Mot (and the Loto-didacte), Appel à tous (Call to All), Carte
blanche, Duo, Dilemme, "Que fais-je?", white spaces, bonus and "double the value" spaces, and
Quitte ou double.

Most scenes put the space under test on space 4 of the Schoolchildren's Path (Alice, first to
play, rolls 1 and 3 from the Start space), or on space 3 of Saint-Lauréat College (Alice rolls
5 and 1 from the Entrance arrow). Every other space of ``board_with`` is plain: Petite Colle on
the Path, Érudition at the College, Mini-Test at the University.
"""

from __future__ import annotations

import pytest

from companion.core import codec
from companion.games.docte_rat.files import parse_deck
from tests.games.docte_rat.scenario import Table, board_with

ENTRANCE = -1


def on_the_path(space: str, *names: str, **kw) -> Table:
    """Alice (first) lands on ``space`` with her first roll, 1 and 3, on the Path."""
    table = Table(*(names or ("Alice", "Bob")), first="Alice",
                  board=board_with(school={4: space}), **kw)
    table.roll(1, 3)
    assert table.position("Alice") == 4
    return table


def at_the_college(space: str, bulletin: int = 0, *names: str, **kw) -> Table:
    """Alice (first) lands on ``space`` on College space 3, from the Entrance arrow."""
    pawns = {"Alice": ("college", ENTRANCE, bulletin)} | kw.pop("pawns", {})
    table = Table(*(names or ("Alice", "Bob")), first="Alice",
                  board=board_with(college={3: space}), pawns=pawns, **kw)
    table.roll(5, 1)
    assert table.position("Alice") == 3
    return table


def at_the_university(space: str = "mini_test", bulletin: int = 0, *names: str, **kw) -> Table:
    """Alice (first) lands on ``space`` on University space 3, from the Entrance arrow."""
    table = Table(*(names or ("Alice", "Bob")), first="Alice",
                  board=board_with(university={3: space}),
                  pawns={"Alice": ("university", ENTRANCE, bulletin)}, **kw)
    table.roll(5, 1)
    assert table.position("Alice") == 3
    return table


# --- Petite Colle and Érudition -----------------------------------------------------------------


def test_a_petite_colle_is_worth_5_and_then_the_turn_passes():
    table = on_the_path("petite_colle")
    assert table.question["series"] == "petite_colle"
    table.right()
    assert table.bulletin("Alice") == 5
    assert table.turn == "Bob" and table.question is None


def test_an_erudition_is_worth_10_even_on_the_schoolchildren_path():
    table = on_the_path("erudition")
    table.right()
    assert table.bulletin("Alice") == 10


def test_a_missed_question_scores_nothing_and_the_turn_passes():
    table = on_the_path("erudition", "Alice", "Bob", "Chloé")
    table.wrong()
    assert table.bulletin("Alice") == 0
    assert table.turn == "Bob" and table.phase == "ROLL"


# --- Appel à tous (Call to All) -----------------------------------------------------------------


def test_call_to_all_to_the_left_goes_round_clockwise_and_the_first_to_succeed_scores():
    table = on_the_path("petite_colle call=left", "Alice", "Bob", "Chloé", "Denis")
    table.wrong()
    assert "call_to_all" in table.notices()
    assert table.answering == "Bob"
    table.wrong()
    assert table.answering == "Chloé"
    table.right()
    assert [table.bulletin(n) for n in ("Alice", "Bob", "Chloé", "Denis")] == [0, 0, 5, 0]
    # Then the turn passes to the pawn after Alice, not after Chloé.
    assert table.turn == "Bob" and table.phase == "ROLL"


def test_call_to_all_to_the_right_goes_round_the_other_way():
    table = on_the_path("petite_colle call=right", "Alice", "Bob", "Chloé", "Denis")
    table.wrong()
    assert table.answering == "Denis"
    table.wrong()
    assert table.answering == "Chloé"
    table.right()
    assert table.bulletin("Chloé") == 5 and table.bulletin("Denis") == 0
    assert table.turn == "Bob"


def test_call_to_all_that_nobody_answers_gives_nobody_points():
    table = on_the_path("erudition call=left", "Alice", "Bob", "Chloé")
    table.wrong()
    table.wrong()
    assert table.answering == "Chloé" and table.question["callers_left"] == []
    table.wrong()
    assert [table.bulletin(n) for n in ("Alice", "Bob", "Chloé")] == [0, 0, 0]
    assert table.turn == "Bob" and table.question is None


def test_call_to_all_points_go_on_the_callers_own_bulletin_whatever_the_track():
    table = on_the_path("erudition call=left", pawns={"Bob": ("college", 5, 10)})
    table.wrong()
    table.right()  # Bob, at the College, answers the Path's question
    assert table.track("Bob") == "college" and table.bulletin("Bob") == 20


def test_call_to_all_that_completes_another_players_goal_moves_that_pawn_on():
    table = on_the_path("erudition call=right", "Alice", "Bob", "Chloé",
                        pawns={"Chloé": ("college", 5, 45)})
    table.wrong()
    assert table.answering == "Chloé"
    table.right()  # 45 + 10: Chloé completes the College with Alice's question
    assert (table.track("Chloé"), table.position("Chloé"), table.bulletin("Chloé")) == (
        "university", ENTRANCE, 0)
    assert "goal" in table.notices()
    assert table.turn == "Bob"


def test_call_to_all_that_makes_another_player_docte_rat_ends_the_game():
    table = on_the_path("petite_colle call=left", pawns={"Bob": ("university", 8, 70)})
    table.wrong()
    table.right()  # Bob: 70 + 5 = 75
    assert table.over and table.winner == "Bob"
    assert table.bulletin("Bob") == 75
    table.rejected("roll", dice=[2, 3])


def test_call_to_all_is_worth_the_space_value_with_its_bonus():
    table = on_the_path("erudition call=right bonus=5")
    table.wrong()
    assert table.question["points_if_right"] == 15
    table.right()
    assert table.bulletin("Bob") == 15


def test_a_bon_mot_call_to_all_keeps_the_value_announced():
    table = on_the_path("bon_mot call=left", "Alice", "Bob", "Chloé")
    table.wrong(points=5)
    table.wrong()
    table.right()  # Chloé: the card's 5 points, told with Alice's answer
    assert table.bulletin("Chloé") == 5


def test_a_resting_pawn_may_still_answer_a_call_to_all():
    board = board_with(school={3: "rest", 5: "petite_colle call=left"})
    table = Table("Alice", "Bob", "Chloé", first="Alice", board=board)
    table.roll(1, 2)  # Alice rests
    table.roll(2, 3)  # Bob: Appel à tous
    table.wrong()
    table.wrong()  # Chloé
    assert table.answering == "Alice"
    table.right()
    assert table.bulletin("Alice") == 5
    assert table.turn == "Chloé"
    table.roll(1, 1)
    table.wrong()
    assert table.turn == "Bob"  # Alice still skips her turn


# --- Mini-Test ----------------------------------------------------------------------------------


def test_a_mini_test_entitles_to_every_question_even_after_a_miss():
    table = at_the_university()
    table.mini_test("questions", [5, 10])
    table.wrong()
    assert table.answering == "Alice" and table.question["index"] == 1
    table.right()
    assert table.bulletin("Alice") == 10
    assert table.turn == "Bob"


def test_a_mini_test_of_three_questions_counts_each_right_answer():
    table = at_the_university()
    table.mini_test("questions", [5, 5, 5])
    table.right()
    assert table.bulletin("Alice") == 5  # credited at once
    table.wrong()
    table.right()
    assert table.bulletin("Alice") == 10 and table.turn == "Bob"


@pytest.mark.parametrize("right", [True, False])
def test_a_mini_test_with_a_single_question_is_worth_15(right):
    table = at_the_university()
    table.mini_test("single")
    table.submit("answer", correct=right)
    assert table.bulletin("Alice") == (15 if right else 0)
    assert table.turn == "Bob"


@pytest.mark.parametrize(("misses", "points"), [(0, 15), (1, 10), (2, 5), (3, 0)])
def test_a_question_with_clues_is_worth_15_10_or_5(misses, points):
    table = at_the_university()
    table.mini_test("clues")
    for _ in range(misses):
        table.wrong()
    if misses < 3:
        table.right()
    assert table.bulletin("Alice") == points
    assert table.turn == "Bob" and table.question is None


def test_a_mini_test_is_never_a_call_to_all():
    table = at_the_university("mini_test", 0, "Alice", "Bob", "Chloé")
    table.mini_test("single")
    table.wrong()
    assert "call_to_all" not in table.notices()
    assert table.turn == "Bob" and table.question is None
    assert table.bulletin("Bob") == 0 and table.bulletin("Chloé") == 0


@pytest.mark.parametrize("values", [[10, 10], [5, 5, 10], [10, 10, 10]])
def test_a_mini_test_card_worth_more_than_15_is_refused(values):
    table = at_the_university()
    message = table.rejected("mini_test_card", kind="questions", values=values)
    assert "15" in message
    assert table.phase == "MINI_TEST_CARD"


def test_a_mini_test_on_a_double_the_value_space_doubles_each_answer():
    table = at_the_university("mini_test multiplier=2")
    table.mini_test("questions", [5, 10])
    table.right()
    table.right()
    assert table.bulletin("Alice") == 30


def test_a_mini_test_space_bonus_comes_once_with_the_first_right_answer():
    table = at_the_university("mini_test bonus=5")
    table.mini_test("questions", [5, 5, 5])
    table.wrong()
    table.right()  # 5 + the bonus of 5
    table.right()  # 5
    assert table.bulletin("Alice") == 15


# --- Bon Mot and the Loto-didacte ---------------------------------------------------------------


@pytest.mark.parametrize("points", [5, 10])
def test_a_bon_mot_is_worth_5_or_10_as_the_card_states(points):
    table = on_the_path("bon_mot")
    assert table.question["series"] == "bon_mot"
    table.right(points=points)
    assert table.bulletin("Alice") == points


def test_a_missed_bon_mot_scores_nothing():
    table = on_the_path("bon_mot")
    table.wrong(points=10)
    assert table.bulletin("Alice") == 0 and table.turn == "Bob"


@pytest.mark.parametrize(("points", "doubled"), [(5, 10), (10, 20)])
def test_the_loto_didacte_doubles_a_bon_mot(points, doubled):
    table = at_the_college('bon_mot multiplier=2 label="Loto-didacte"')
    assert table.pawn("Alice")["space"]["label"] == "Loto-didacte"
    table.right(points=points)
    assert table.bulletin("Alice") == doubled


# --- Carte blanche ------------------------------------------------------------------------------


def test_carte_blanche_lets_the_player_choose_any_series():
    table = on_the_path("carte_blanche")
    assert table.phase == "CHOOSE_SERIES"
    assert sorted(table.view["view"]["choices"]) == [
        "bon_mot", "erudition", "mini_test", "petite_colle"]
    table.choose("erudition")
    table.right()
    assert table.bulletin("Alice") == 10


def test_carte_blanche_has_no_penalty_and_no_call_to_all():
    table = on_the_path("carte_blanche", "Alice", "Bob", "Chloé",
                        pawns={"Alice": ("school", 0, 10)})
    table.choose("erudition")
    table.wrong()
    assert table.bulletin("Alice") == 10
    assert table.turn == "Bob" and table.question is None


def test_carte_blanche_may_choose_a_mini_test():
    table = on_the_path("carte_blanche")
    table.choose("mini_test")
    table.mini_test("single")
    table.right()
    assert table.bulletin("Alice") == 15


# --- Duo ----------------------------------------------------------------------------------------


def test_a_duo_is_a_petite_colle_then_an_erudition_for_15():
    table = on_the_path("duo")
    assert table.question["series"] == "petite_colle"
    table.right()
    assert table.question["series"] == "erudition" and table.answering == "Alice"
    assert table.bulletin("Alice") == 0  # nothing until the Érudition
    table.right()
    assert table.bulletin("Alice") == 15 and table.turn == "Bob"


def test_a_duo_missed_petite_colle_gives_no_erudition():
    table = on_the_path("duo", "Alice", "Bob", "Chloé")
    table.wrong()
    assert table.question is None and table.turn == "Bob"
    assert table.bulletin("Alice") == 0


def test_a_duo_with_a_missed_erudition_is_worth_0():
    table = on_the_path("duo")
    table.right()
    table.wrong()
    assert table.bulletin("Alice") == 0 and table.turn == "Bob"


def test_a_duo_counts_even_past_the_goal():
    table = on_the_path("duo", pawns={"Alice": ("school", 0, 20)})
    table.right()  # the Petite Colle alone would reach 25: the Érudition is still asked
    assert table.question["series"] == "erudition"
    table.right()
    assert (table.track("Alice"), table.position("Alice"), table.bulletin("Alice")) == (
        "college", ENTRANCE, 0)
    assert table.turn == "Bob"


def test_a_duo_at_the_college_past_the_goal_opens_the_university():
    table = at_the_college("duo", 45)
    table.right()
    table.right()
    assert table.track("Alice") == "university" and table.bulletin("Alice") == 0


# --- Dilemme ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("series", "points"), [("petite_colle", 5), ("erudition", 10)])
def test_a_dilemme_right_answer_earns_the_points_of_the_series_chosen(series, points):
    table = on_the_path("dilemme", pawns={"Alice": ("school", 0, 10)})
    assert sorted(table.view["view"]["choices"]) == ["erudition", "petite_colle"]
    table.choose(series)
    table.right()
    assert table.bulletin("Alice") == 10 + points


@pytest.mark.parametrize(("series", "points"), [("petite_colle", 5), ("erudition", 10)])
def test_a_dilemme_wrong_answer_subtracts_the_points(series, points):
    table = on_the_path("dilemme", "Alice", "Bob", "Chloé", pawns={"Alice": ("school", 0, 15)})
    table.choose(series)
    table.wrong()
    assert table.bulletin("Alice") == 15 - points
    assert table.turn == "Bob"  # no Call to All


def test_a_dilemme_does_not_take_the_bulletin_below_zero():
    table = on_the_path("dilemme", pawns={"Alice": ("school", 0, 5)})
    table.choose("erudition")
    table.wrong()
    assert table.bulletin("Alice") == 0


def test_a_dilemme_may_go_below_zero_when_the_table_says_so():
    table = on_the_path("dilemme", pawns={"Alice": ("school", 0, 5)},
                        settings={"negative_bulletin": True})
    table.choose("erudition")
    table.wrong()
    assert table.bulletin("Alice") == -5


# --- "Que fais-je?" -----------------------------------------------------------------------------


def test_que_fais_je_advance_then_meet_the_space_landed_on():
    table = on_the_path("que_fais_je")
    assert table.phase == "DRAW_CARD"
    table.draw(1)  # advance 3
    assert table.position("Alice") == 7
    assert table.answering == "Alice" and table.question["series"] == "petite_colle"
    table.right()
    assert table.bulletin("Alice") == 5 and table.turn == "Bob"


def test_que_fais_je_back_then_meet_the_space_landed_on():
    table = on_the_path("que_fais_je", pawns={"Alice": ("school", 0, 10)})
    table.draw(6)  # back 2, lose 5
    assert table.position("Alice") == 2 and table.bulletin("Alice") == 5
    assert table.answering == "Alice"


def test_que_fais_je_back_past_the_start_space_goes_round_the_circuit():
    table = Table("Alice", "Bob", first="Alice", board=board_with(school={2: "que_fais_je"}))
    table.roll(1, 1)
    table.draw(24)  # back 4
    assert table.position("Alice") == 31 and table.answering == "Alice"


def test_que_fais_je_back_at_the_college_stops_on_the_entrance_arrow():
    table = Table("Alice", "Bob", first="Alice", board=board_with(college={2: "que_fais_je"}),
                  pawns={"Alice": ("college", ENTRANCE, 10)})
    table.roll(4, 1)
    table.draw(24)  # back 4
    assert table.position("Alice") == ENTRANCE
    assert table.question is None and table.turn == "Bob"


def test_que_fais_je_advance_onto_another_que_fais_je_draws_again():
    table = Table("Alice", "Bob", first="Alice",
                  board=board_with(school={4: "que_fais_je", 7: "que_fais_je"}))
    table.roll(1, 3)
    table.draw(1)  # advance 3
    assert table.position("Alice") == 7 and table.phase == "DRAW_CARD"
    table.draw(3)  # gain 5
    assert table.bulletin("Alice") == 5 and table.turn == "Bob"


def test_que_fais_je_advance_past_the_college_exit_repeats_the_year():
    table = Table("Alice", "Bob", first="Alice", board=board_with(college={20: "que_fais_je"}),
                  pawns={"Alice": ("college", 18, 20)})
    table.roll(3, 1)
    table.draw(7)  # advance 5
    assert table.position("Alice") == ENTRANCE and table.bulletin("Alice") == 15
    assert table.turn == "Alice" and table.phase == "ROLL"


def test_que_fais_je_without_meeting_the_space_when_the_table_says_so():
    table = on_the_path("que_fais_je", settings={"card_move_meets_space": False})
    table.draw(1)
    assert table.position("Alice") == 7
    assert table.question is None and table.turn == "Bob"


def test_que_fais_je_rest_skips_the_next_normal_turn():
    table = on_the_path("que_fais_je")
    table.draw(2)  # rest 1
    assert table.turn == "Bob"
    table.roll(1, 2)
    table.wrong()
    assert table.turn == "Bob"  # Alice skips
    table.roll(1, 2)
    table.wrong()
    assert table.turn == "Alice"


@pytest.mark.parametrize(("card", "before", "after"), [(3, 10, 15), (9, 0, 10), (10, 10, 5),
                                                       (10, 0, 0), (18, 5, 0)])
def test_que_fais_je_gain_or_lose_points(card, before, after):
    table = on_the_path("que_fais_je", pawns={"Alice": ("school", 0, before)})
    table.draw(card)
    assert table.bulletin("Alice") == after
    assert table.question is None and table.turn == "Bob"


def test_que_fais_je_question_of_a_series():
    table = on_the_path("que_fais_je")
    table.draw(4)  # an Érudition
    assert table.question["series"] == "erudition" and table.answering == "Alice"
    table.right()
    assert table.bulletin("Alice") == 10 and table.turn == "Bob"


def test_que_fais_je_mini_test_and_bon_mot_questions():
    table = on_the_path("que_fais_je")
    table.draw(13)
    assert table.phase == "MINI_TEST_CARD"
    table.mini_test("single")
    table.right()
    assert table.bulletin("Alice") == 15
    table = on_the_path("que_fais_je")
    table.draw(12)
    table.right(points=10)
    assert table.bulletin("Alice") == 10


def test_que_fais_je_roll_again():
    table = on_the_path("que_fais_je")
    table.draw(5)
    assert table.turn == "Alice" and table.phase == "ROLL"
    table.roll(1, 1)
    assert table.position("Alice") == 6 and table.answering == "Alice"
    table.wrong()
    assert table.turn == "Bob"


def test_que_fais_je_advance_and_roll_again_after_the_space():
    table = on_the_path("que_fais_je")
    table.draw(15)  # advance 2, roll again
    assert table.position("Alice") == 6 and table.answering == "Alice"
    table.right()
    assert table.turn == "Alice" and table.phase == "ROLL"


def test_que_fais_je_gain_that_completes_the_goal_ends_the_turn():
    table = on_the_path("que_fais_je", pawns={"Alice": ("school", 0, 10)})
    table.draw(22)  # gain 15
    assert (table.track("Alice"), table.bulletin("Alice")) == ("college", 0)
    assert table.turn == "Bob" and table.phase == "ROLL"


def test_que_fais_je_gain_that_completes_the_goal_asks_no_question():
    table = on_the_path("que_fais_je", pawns={"Alice": ("school", 0, 20)})
    table.draw(20)  # gain 5, then an Érudition
    assert table.track("Alice") == "college" and table.question is None
    assert table.turn == "Bob"


def test_que_fais_je_gain_then_question_when_the_goal_is_not_reached():
    table = on_the_path("que_fais_je")
    table.draw(20)
    assert table.bulletin("Alice") == 5
    table.right()
    assert table.bulletin("Alice") == 15


def test_que_fais_je_with_the_tables_own_cards():
    deck = codec.dump(parse_deck(
        "1 | Le Docte Rat te félicite : gagne 10 points. | gain 10\n"
        "2 | Retour en classe : recule de 1 case. | back 1\n"
    ))
    table = on_the_path("que_fais_je", deck=deck)
    assert "1 to 2" in table.rejected("draw_card", card=3)
    table.draw(1)
    assert table.bulletin("Alice") == 10 and table.turn == "Bob"


def test_que_fais_je_roll_again_is_lost_when_the_goal_is_reached():
    table = on_the_path("que_fais_je", pawns={"Alice": ("school", 0, 20)})
    table.draw(15)  # advance 2 (a Petite Colle), roll again
    table.right()  # 25: the goal
    assert table.track("Alice") == "college"
    assert table.turn == "Bob"  # wait for your normal turn


def test_que_fais_je_gain_and_roll_again_that_completes_the_goal_ends_the_turn():
    deck = codec.dump(parse_deck("1 | Bravo : gagne 10 points et relance. | gain 10, roll_again\n"))
    table = on_the_path("que_fais_je", pawns={"Alice": ("school", 0, 20)}, deck=deck)
    table.draw(1)
    assert table.track("Alice") == "college"
    assert table.turn == "Bob"


# --- White spaces: rest -------------------------------------------------------------------------


def test_a_white_space_rests_the_pawn_one_turn():
    table = on_the_path("rest", "Alice", "Bob", "Chloé")
    assert "rests" in table.notices() and table.question is None
    assert table.turn == "Bob"
    for expected in ("Chloé", "Bob", "Chloé", "Alice"):
        table.roll(1, 2)
        table.wrong()
        assert table.turn == expected


def test_a_white_space_may_rest_the_pawn_two_turns():
    table = on_the_path("rest turns=2")
    for _ in range(3):
        assert table.turn == "Bob"
        table.roll(1, 2)
        table.wrong()
    assert table.turn == "Alice"


# --- Bonus and "double the value" ---------------------------------------------------------------


def test_a_bonus_space_gives_its_points_at_once():
    table = on_the_path("bonus bonus=5")
    assert table.bulletin("Alice") == 5
    assert table.question is None and table.turn == "Bob"


def test_a_bonus_space_may_complete_the_goal():
    table = Table("Alice", "Bob", first="Alice", board=board_with(school={4: "bonus bonus=5"}),
                  pawns={"Alice": ("school", 0, 20)})
    table.roll(1, 3)
    assert (table.track("Alice"), table.bulletin("Alice")) == ("college", 0)
    assert table.turn == "Bob"


def test_a_double_the_value_petite_colle_is_worth_10():
    table = on_the_path("petite_colle multiplier=2")
    assert table.question["points_if_right"] == 10
    table.right()
    assert table.bulletin("Alice") == 10


@pytest.mark.parametrize(("right", "points"), [(True, 15), (False, 0)])
def test_a_bonus_of_5_on_an_erudition(right, points):
    table = on_the_path("erudition bonus=5")
    table.submit("answer", correct=right)
    assert table.bulletin("Alice") == points


# --- Quitte ou double ---------------------------------------------------------------------------


def test_quitte_ou_double_a_right_answer_is_the_stake_and_stop_banks_it():
    table = at_the_college("quitte_ou_double", 5)
    assert table.question["series"] == "erudition"  # the College's own colour
    table.right()
    assert table.phase == "DOUBLE_OR_QUIT"
    assert table.question["stake"] == 10 and table.bulletin("Alice") == 5
    table.stop()
    assert table.bulletin("Alice") == 15 and table.turn == "Bob"


def test_quitte_ou_double_double_and_right_doubles_the_stake():
    table = at_the_college("quitte_ou_double")
    table.right()
    table.double()
    assert table.answering == "Alice" and table.phase == "QUESTION"
    table.right()
    assert table.question["stake"] == 20
    table.stop()
    assert table.bulletin("Alice") == 20 and table.turn == "Bob"


def test_quitte_ou_double_double_and_wrong_loses_the_stake_only():
    table = at_the_college("quitte_ou_double", 15)
    table.right()
    table.double()
    table.wrong()
    assert "stake_lost" in table.notices()
    assert table.bulletin("Alice") == 15  # the Bulletin itself is never at risk
    assert table.turn == "Bob"


def test_quitte_ou_double_asks_three_questions_at_most():
    table = at_the_college("quitte_ou_double")
    table.right()
    table.double()
    table.right()
    table.double()
    table.right()  # 10, 20, 40: banked without a fourth question
    assert table.bulletin("Alice") == 40
    assert table.turn == "Bob" and table.phase == "ROLL"
    table.rejected("double")


def test_quitte_ou_double_a_wrong_first_answer_earns_nothing():
    table = at_the_college("quitte_ou_double", 10)
    table.wrong()
    assert table.bulletin("Alice") == 10 and table.turn == "Bob"


def test_quitte_ou_double_of_the_series_printed_on_the_space():
    table = at_the_university("quitte_ou_double series=erudition")
    assert table.question["series"] == "erudition"
    table.right()
    table.stop()
    assert table.bulletin("Alice") == 10


def test_quitte_ou_double_of_mini_tests_offers_double_too():
    table = at_the_university("quitte_ou_double")  # the University's own colour: Mini-Test
    table.mini_test("single")
    table.right()
    assert table.phase == "DOUBLE_OR_QUIT"
    assert table.bulletin("Alice") == 0 and table.question["stake"] == 15
