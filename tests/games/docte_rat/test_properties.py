"""Hypothesis: whatever the table does, Le Docte Rat keeps its invariants.

- a journal replayed equals the live state; undo restores the state before; redo after;
- a Bulletin never carries points across tracks;
- only a pawn at the University can win, and only with its goal reached;
- the active player always advances clockwise, skipping only pawns that rest;
- Bulletins only change by the points the screen announces (no drift).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.actions import Action
from companion.core.turns import next_seat
from companion.games.docte_rat.engine import ENGINE, UNIVERSITY, DocteRatState, Phase
from companion.games.registry import Registry
from companion.session.journal import Journal
from companion.session.referee import Accepted, Intent, Referee

SETUPS = ENGINE.example_setups()
RULES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pick(data: st.DataObject, state: DocteRatState) -> Action:
    legal = [a for a in ENGINE.legal_actions(state) if a.type != "infraction"]
    if data.draw(st.integers(0, 30), label="infraction?") == 0:
        legal = list(ENGINE.legal_actions(state))  # now and then someone cheats
    return legal[data.draw(st.integers(0, len(legal) - 1), label="action")]


def check_step(before: DocteRatState, action: Action, after: DocteRatState) -> None:
    n = len(before.seats)
    announced = {i: 0 for i in range(n)}
    for notice in after.notices:
        if notice.kind == "points" and notice.seat is not None:
            announced[notice.seat] += notice.value
    for seat, (old, new) in enumerate(zip(before.pawns, after.pawns, strict=True)):
        if new.track > old.track:  # a goal was reached: nothing carried over
            assert new.track == old.track + 1 and new.bulletin == 0 and new.position == -1
            assert old.bulletin + announced[seat] >= before.goals[old.track]
        elif new.track == old.track:
            floor = 0 if not before.settings.negative_bulletin else None
            expected = old.bulletin + announced[seat]
            if floor is not None:
                assert new.bulletin == max(floor, expected) or new.bulletin == expected
            else:
                assert new.bulletin == expected
        else:
            raise AssertionError("a pawn went back a track")
    if after.winner is not None:
        pawn = after.pawns[after.winner]
        assert pawn.track == UNIVERSITY and pawn.bulletin >= after.goals[UNIVERSITY]
        assert after.phase is Phase.OVER
    # clockwise: a new normal turn goes to the next seat, skipping only resting pawns
    if action.type == "infraction":  # reporting cheating never moves the turn
        assert (after.phase, after.current) == (before.phase, before.current)
    elif before.phase is not Phase.ROLL_OFF and after.phase is Phase.ROLL:
        if after.current != before.current:
            skipped = [x.seat for x in after.notices if x.kind == "skips"]
            seat = next_seat(before.current, n)
            while seat != after.current:
                assert seat in skipped, f"seat {seat} was passed over without resting"
                seat = next_seat(seat, n)
        else:
            kinds = {x.kind for x in after.notices}
            rule = {"repeat_year", "roll_again", "skips"} & kinds or n == 1
            assert rule, f"the same pawn plays again without a rule saying so: {kinds}"


@RULES
@given(data=st.data(), which=st.integers(0, len(SETUPS) - 1))
def test_invariants_hold_through_random_games(data: st.DataObject, which: int) -> None:
    state = ENGINE.new_state(SETUPS[which])
    for _ in range(120):
        if ENGINE.is_over(state):
            break
        action = pick(data, state)
        after = ENGINE.apply(state, action)
        check_step(state, action, after)
        state = after


@RULES
@given(data=st.data(), which=st.integers(0, len(SETUPS) - 1))
def test_journal_replay_equals_live_state_and_undo_restores(
    data: st.DataObject, which: int
) -> None:
    with Journal.open(":memory:") as journal:
        referee = Referee(journal, Registry((ENGINE,)))
        assert isinstance(referee.start(ENGINE.id, SETUPS[which]), Accepted)
        for _ in range(40):
            if ENGINE.is_over(referee.state):
                break
            before = referee.state
            action = pick(data, before)
            assert isinstance(referee.submit(Intent("action", action, referee.state_id)),
                              Accepted)
            after = referee.state
            if data.draw(st.integers(0, 4), label="undo?") == 0:
                assert isinstance(referee.submit(Intent("undo", state_id=referee.state_id)),
                                  Accepted)
                assert referee.state == before
                if data.draw(st.booleans(), label="redo?"):
                    assert isinstance(referee.submit(Intent("redo")), Accepted)
                    assert referee.state == after
        replayed = Referee(journal, Registry((ENGINE,)))
        assert isinstance(replayed.resume(referee.session_id), Accepted)
        assert replayed.state == referee.state
        assert replayed.view() == referee.view()
