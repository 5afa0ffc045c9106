"""Actions survive JSON unchanged; turn order and dice checks say what was expected."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.actions import Action
from companion.core.engine import Seat, Setup
from companion.core.errors import InvalidAction
from companion.core.turns import check_dice, lowest, next_active_seat, next_seat, round_from

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=12,
)


@given(
    type_=st.text(min_size=1, max_size=12),
    args=st.dictionaries(st.text(max_size=6), json_values, max_size=4),
    player=st.none() | st.integers(0, 5),
)
def test_every_action_survives_a_json_round_trip(type_, args, player) -> None:
    action = Action(type_, args, player)
    again = Action.from_json(json.loads(action.dumps()))
    assert again == action and hash(again) == hash(action)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"args": {}}, "has no 'type'"),
        ({"type": "roll", "dice": [1, 2]}, "unknown action field(s) ['dice']"),
        ({"type": "roll", "args": [1, 2]}, "args must be an object"),
        ({"type": "roll", "player": "Bob"}, "player must be a seat number, got 'Bob'"),
        ("roll", "must be a JSON object"),
    ],
)
def test_malformed_actions_are_refused_with_the_reason(data, words) -> None:
    with pytest.raises(InvalidAction) as err:
        Action.from_json(data)
    assert words in str(err.value)


def test_action_args_cannot_be_changed_after_the_fact() -> None:
    args = {"dice": [1, 2]}
    action = Action("roll", args)
    args["dice"].append(3)
    assert action.arg("dice") == (1, 2)
    with pytest.raises(TypeError):
        action.args["dice"] = (6, 6)  # type: ignore[index]


def test_setup_with_teams_round_trips() -> None:
    setup = Setup((Seat("Alice"), Seat("Les Rats", ("Bob", "Chloé"))), {"goals": [20, 30, 40]})
    assert Setup.from_json(json.loads(json.dumps(setup.to_json()))) == setup


def test_turn_order_goes_clockwise_and_skips() -> None:
    assert [next_seat(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert next_seat(0, 4, step=-1) == 3
    assert round_from(2, 4) == [2, 3, 0, 1]
    assert next_active_seat(0, 4, skip=lambda s: s in {1, 2}) == 3
    assert next_active_seat(0, 3, skip=lambda s: True) is None


def test_roll_off_lowest_total_starts_and_ties_reroll() -> None:
    assert lowest({0: 7, 1: 3, 2: 9}) == [1]
    assert lowest({0: 3, 1: 3, 2: 9}) == [0, 1]


@pytest.mark.parametrize(
    ("dice", "words"),
    [
        ([7, 1], "got 7"),
        ([0, 1], "got 0"),
        ([1], "expected 2 dice"),
        ("12", "list of numbers"),
        ([1.5, 2], "got 1.5"),
        ([True, 2], "got True"),
    ],
)
def test_dice_from_outside_are_checked(dice, words) -> None:
    with pytest.raises(InvalidAction) as err:
        check_dice(dice, 2)
    assert words in str(err.value)
    assert check_dice([6, 1], 2) == (6, 1)
