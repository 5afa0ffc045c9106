"""The Le Docte Rat play screen, driven through intents like a family at the table: rolls on
the dice pad, answers with the box's YES / NO and taps, the menu, undo, resume after a power
cut, and the end screen. Real referee, real SQLite journal, real pygame surfaces."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.core import codec
from companion.core.engine import Seat, Setup
from companion.devices.events import ButtonName
from companion.games.registry import default_registry
from companion.session.journal import Journal
from companion.session.referee import Accepted, Referee
from companion.ui.intents import Back, Press
from companion.ui.scenes.docte_rat.end import EndScene
from companion.ui.scenes.docte_rat.play import PlayScene
from companion.ui.scenes.history import HistoryScene
from companion.ui.widgets import wrap
from tests.games.docte_rat.scenario import board_with
from tests.ui.conftest import Rig

MakeRig = Callable[..., Rig]


def start(
    make_rig: MakeRig,
    *names: str | Seat,
    size: tuple[int, int] = (800, 480),
    language: str = "fr",
    journal: Journal | None = None,
    camera: bool = False,
    **options: Any,
) -> tuple[Rig, list[str]]:
    """A rig showing the play screen of a new game (a name, or a Seat for a team); the list
    records every beep."""
    seats = tuple(n if isinstance(n, Seat) else Seat(n) for n in names)

    def first(ctx: Any) -> PlayScene:
        verdict = ctx.referee.start("docte-rat", Setup(seats, options))
        assert isinstance(verdict, Accepted), verdict
        return PlayScene(ctx)

    rig = make_rig(size=size, language=language, journal=journal, first=first, camera=camera)
    beeps: list[str] = []
    rig.ctx.hardware.beep = beeps.append  # type: ignore[method-assign]
    return rig, beeps


def scene(rig: Rig) -> PlayScene:
    assert rig.loop.failures == 0, "a scene crashed into the failsafe"
    assert isinstance(rig.scene, PlayScene), rig.scene.name
    return rig.scene


def engine_view(rig: Rig) -> dict[str, Any]:
    return rig.ctx.referee.view()


def roll(rig: Rig, a: int, b: int) -> None:
    """Enter a roll on the dice pad, as a player would with no camera."""
    assert scene(rig).phase in ("ROLL", "ROLL_OFF"), scene(rig).phase
    tap(rig, f"dice:key:{a}")
    tap(rig, f"dice:key:{b}")
    tap(rig, "dice:ok")


def tap(rig: Rig, key: str) -> None:
    """A finger on a button, a moment after the screen last changed (people read first)."""
    rig.clock.advance(0.5)
    rig.tap_button(key)


def press(rig: Rig, name: ButtonName) -> None:
    rig.clock.advance(0.5)
    rig.loop.dispatch(Press(name))
    rig.step()


def toast(rig: Rig) -> str:
    return rig.ctx.toast.current(rig.ctx.now()) or ""


def bulletin(rig: Rig, seat: int) -> int:
    return int(engine_view(rig)["view"]["seats"][seat]["bulletin"])


SCHOOL_PC = board_with()  # Petite Colle everywhere, Érudition at the College, Mini-Test above


# -- a whole game ----------------------------------------------------------------------------


def test_a_short_game_from_the_first_roll_to_docte_rat(make_rig: MakeRig) -> None:
    rig, beeps = start(make_rig, "Alice", "Bob", goals=[5, 5, 5], first=0,
                       board=codec.dump(SCHOOL_PC))
    assert "Alice joue" in rig.text()
    # School: Alice rolls 1 + 2 and lands on a Petite Colle
    roll(rig, 1, 2)
    assert engine_view(rig)["phase"] == "QUESTION"
    assert "Piochez : Petite Colle — 5 points" in rig.text()
    press(rig, ButtonName.YES)  # the box's YES button: right
    v = engine_view(rig)["view"]["seats"][0]
    assert (v["track"], v["bulletin"]) == ("college", 0)
    assert "goal_reached" in beeps
    assert "Alice entre au Collège Saint-Lauréat !" in rig.text()
    # Bob misses with the NO button
    roll(rig, 2, 2)
    press(rig, ButtonName.NO)
    assert bulletin(rig, 1) == 0
    # College: Alice rolls 5 and 4 (difference 1), an Érudition, tapped RIGHT
    roll(rig, 5, 4)
    assert "Érudition — 10 points" in rig.text()
    tap(rig, "c:right")
    assert engine_view(rig)["view"]["seats"][0]["track"] == "university"
    roll(rig, 1, 3)
    tap(rig, "c:wrong")
    # University: a Mini-Test card with one question
    roll(rig, 6, 4)
    assert engine_view(rig)["phase"] == "MINI_TEST_CARD"
    tap(rig, "c:mini:single")
    assert "Mini-Test : une question — 15 points" in rig.text()
    press(rig, ButtonName.YES)
    assert beeps[-1] == "winner"
    # the winner's last points count up on the play screen before the end screen
    play = scene(rig)
    assert engine_view(rig)["is_over"] and bulletin(rig, 0) == 15
    assert play.shown_bulletin(0) == 0
    assert "Alice est Docte Rat !" in rig.text()
    rig.clock.advance(0.45)
    rig.step()
    assert 0 < scene(rig).shown_bulletin(0) < 15
    rig.clock.advance(0.6)
    rig.step()
    assert scene(rig).shown_bulletin(0) == 15 and "15" in rig.text()
    rig.clock.advance(1.0)
    rig.step()
    assert isinstance(rig.scene, EndScene)
    assert beeps.count("winner") == 1
    rig.step()
    assert "Alice est Docte Rat !" in rig.text()
    assert engine_view(rig)["is_over"]
    # back home: the finished game is in the history
    tap(rig, "home")
    assert rig.scene.name == "home"
    history = HistoryScene(rig.ctx)
    rig.loop.switch(history)
    rig.step()
    assert "Le Docte Rat" in rig.text() and "terminée" in rig.text()
    assert "Alice, Bob · gagné par Alice" in rig.text()


# -- points, animation, undo --------------------------------------------------------------------


def test_points_count_up_with_a_beep_and_undo_restores_without_either(
        make_rig: MakeRig) -> None:
    rig, beeps = start(make_rig, "Alice", "Bob", first=0, board=codec.dump(board_with(
        school={8: "erudition"})))
    roll(rig, 4, 4)  # School: total 8 -> the Érudition
    assert beeps == ["roll_accepted"]
    play = scene(rig)
    number = play.number_rects[0]
    before = pygame.Surface(number.size)
    before.blit(rig.display, (0, 0), number)
    press(rig, ButtonName.YES)
    assert bulletin(rig, 0) == 10
    assert beeps[-1] == "roll_accepted" and len(beeps) == 2
    assert play.shown_bulletin(0) == 0  # the figures start counting up
    rig.clock.advance(0.45)
    rig.step()
    assert 0 < play.shown_bulletin(0) < 10
    rig.clock.advance(1.0)
    rig.step()
    assert play.shown_bulletin(0) == 10
    assert "10" in rig.text() and "Alice : +10 points" in rig.text()
    after = pygame.Surface(play.number_rects[0].size)
    after.blit(rig.display, (0, 0), play.number_rects[0])
    assert pygame.image.tobytes(after, "RGB") != pygame.image.tobytes(before, "RGB")

    press(rig, ButtonName.UNDO)
    assert bulletin(rig, 0) == 0 and engine_view(rig)["phase"] == "QUESTION"
    assert len(beeps) == 2, "an undo never beeps"
    assert play.anims == {} and play.pops == {}
    assert play.shown_bulletin(0) == 0  # at once, no counting
    assert "Dernier coup annulé" in toast(rig)
    # and redo from the menu plays it forward again
    tap(rig, "menu")
    tap(rig, "redo")
    assert bulletin(rig, 0) == 10 and play.shown_bulletin(0) == 0
    assert len(beeps) == 3


# -- a Call to All round ------------------------------------------------------------------------


def test_a_call_to_all_goes_round_the_table_each_marked_in_turn(make_rig: MakeRig) -> None:
    rig, _ = start(make_rig, "Alice", "Bob", "Chloé", first=0,
                   board=codec.dump(board_with(school={3: "petite_colle call=left"})))
    roll(rig, 1, 2)
    assert "Appel à tous vers la gauche en cas d'erreur" in rig.text()
    press(rig, ButtonName.NO)
    play = scene(rig)
    assert engine_view(rig)["view"]["question"]["answering"] == 1
    assert play.turn_text() == "Alice joue  ·  Bob répond"
    assert "Appel à tous : Bob répond — 5 points" in rig.text()
    assert "Ensuite : Chloé" in rig.text()
    tap(rig, "c:wrong")
    assert engine_view(rig)["view"]["question"]["answering"] == 2
    assert "Dernière chance de la tournée" in rig.text()
    tap(rig, "c:right")
    assert [bulletin(rig, s) for s in range(3)] == [0, 0, 5]
    assert engine_view(rig)["view"]["current"] == 1  # Bob's normal turn
    rig.clock.advance(3)
    rig.step()
    assert "Bob joue" in rig.text()


# -- doubles, board-free, Bon Mot, Quitte ou double, Que fais-je? ----------------------------


def test_doubles_at_the_college_offer_stay_or_advance(make_rig: MakeRig) -> None:
    rig, _ = start(make_rig, "Alice", "Bob", first=0, board=codec.dump(SCHOOL_PC),
                   pawns=[{"track": "college", "position": 2, "bulletin": 20}, {}])
    roll(rig, 3, 3)
    assert engine_view(rig)["phase"] == "DOUBLES"
    assert "Double 3 ! Alice, rester ou avancer ?" in rig.text()
    advance = rig.scene.buttons.get("c:advance")
    assert advance is not None and advance.label.replace("\u00a0", " ") == "Avancer de 3"
    tap(rig, "c:advance")
    v = engine_view(rig)
    assert v["view"]["seats"][0]["position"] == 5 and v["phase"] == "QUESTION"


def test_board_free_mode_asks_which_space_was_reached(make_rig: MakeRig) -> None:
    rig, _ = start(make_rig, "Alice", "Bob", first=0, board="free")
    roll(rig, 2, 3)
    assert engine_view(rig)["phase"] == "LANDING"
    assert "Alice avance de 5 : sur quelle case arrive le pion ?" in rig.text()
    labels = {(b.label, b.sublabel): b.key for b in rig.scene.buttons if b.key.startswith("c:")}
    assert ("Dilemme", None) in labels and ("Petite Colle", "Appel →") in labels
    assert ("Sortie", "redoubler") not in labels  # no Exit on the Schoolchildren's Path
    tap(rig, labels[("Érudition", None)])
    q = engine_view(rig)["view"]["question"]
    assert (q["series"], q["points_if_right"]) == ("erudition", 10)


def test_a_bon_mot_needs_its_value_before_right_or_wrong(make_rig: MakeRig) -> None:
    rig, beeps = start(make_rig, "Alice", "Bob", first=0,
                       board=codec.dump(board_with(school={2: "bon_mot"})))
    roll(rig, 1, 1)
    press(rig, ButtonName.YES)
    assert engine_view(rig)["phase"] == "QUESTION", "nothing recorded without the value"
    assert "valeur annoncée par le Bon Mot" in toast(rig) and beeps[-1] == "error"
    tap(rig, "c:bonmot:10")
    assert rig.scene.buttons.get("c:bonmot:10").selected  # type: ignore[union-attr]
    assert "Piochez : Bon Mot — 10 points" in rig.text()
    press(rig, ButtonName.YES)
    assert bulletin(rig, 0) == 10


def test_quitte_ou_double_stop_banks_the_stake(make_rig: MakeRig) -> None:
    rig, _ = start(make_rig, "Alice", "Bob", first=0,
                   board=codec.dump(board_with(school={4: "quitte_ou_double"})))
    roll(rig, 2, 2)
    press(rig, ButtonName.YES)
    assert engine_view(rig)["phase"] == "DOUBLE_OR_QUIT"
    assert "la mise est de 5 points" in rig.text()
    press(rig, ButtonName.YES)  # YES doubles
    press(rig, ButtonName.YES)  # right: the stake is 10
    assert engine_view(rig)["view"]["question"]["stake"] == 10
    press(rig, ButtonName.NO)  # NO stops
    assert bulletin(rig, 0) == 10


def test_que_fais_je_card_and_a_dilemme(make_rig: MakeRig) -> None:
    rig, _ = start(make_rig, "Alice", "Bob", first=0,
                   board=codec.dump(board_with(school={4: "que_fais_je", 6: "dilemme"})))
    roll(rig, 2, 2)
    assert engine_view(rig)["phase"] == "DRAW_CARD"
    tap(rig, "c:card:3")  # placeholder card 3: gain 5 points
    assert bulletin(rig, 0) == 5
    assert "Carte 3" in rig.text()
    roll(rig, 3, 3)  # Bob: space 6, the Dilemme
    assert "Dilemme : Bob, Petite Colle ou Érudition ?" in rig.text()
    tap(rig, "c:series:erudition")
    assert "juste +10, faux −10" in rig.text()
    press(rig, ButtonName.YES)
    assert bulletin(rig, 1) == 10


# -- rejections, double taps, the menu -------------------------------------------------------


def test_a_rejected_intent_says_why_and_a_double_tap_applies_once(make_rig: MakeRig) -> None:
    rig, beeps = start(make_rig, "Alice", "Bob", first=0, board=codec.dump(SCHOOL_PC))
    press(rig, ButtonName.UNDO)
    assert "Rien à annuler" in toast(rig) and beeps == ["error"]
    roll(rig, 1, 2)
    play = scene(rig)
    right = play.buttons.get("c:right")
    assert right is not None
    stale_id = play.seen_id
    rig.clock.advance(0.5)
    rig.tap(right.rect.center)
    assert bulletin(rig, 0) == 5
    # a second finger on the old screen: the intent carries the old state id and is dropped
    verdict = play.ctx.referee.submit(__import__("companion.session.referee", fromlist=[
        "Intent"]).Intent("action", play.legal[0], stale_id))
    assert not isinstance(verdict, Accepted)
    assert bulletin(rig, 0) == 5
    # an action the rules refuse now (an answer while Bob must roll): a clear message
    from companion.core.actions import Action

    play.submit(Action("answer", {"correct": True}, 1))
    assert "pas possible maintenant" in toast(rig)
    assert engine_view(rig)["phase"] == "ROLL"


def test_menu_records_an_infraction_and_shows_the_rules_of_the_phase(
        make_rig: MakeRig) -> None:
    rig, _ = start(make_rig, "Alice", "Bob", first=0, language="en")
    tap(rig, "menu")
    assert {"home", "redo", "infraction", "rules", "close"} <= {b.key for b in rig.scene.buttons}
    tap(rig, "rules")
    assert "moves by the total of the dice" in rig.text()
    rig.loop.dispatch(Back())
    rig.step()
    assert scene(rig).overlay is None
    tap(rig, "menu")
    tap(rig, "infraction")
    tap(rig, "cheat:1")
    assert engine_view(rig)["view"]["seats"][1]["infractions"] == 1
    rig.step()
    assert "Bob: warning for cheating" in rig.text() and "warned 1" in rig.text()
    tap(rig, "menu")
    tap(rig, "home")
    assert rig.scene.name == "home" and rig.ctx.referee.session_id is None


# -- power cut --------------------------------------------------------------------------------


def test_resume_from_the_journal_file_shows_the_same_screen(
        make_rig: MakeRig, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    rig, _ = start(make_rig, "Alice", "Bob", "Chloé", journal=Journal.open(path),
                   board=codec.dump(board_with(school={3: "petite_colle call=right"})))
    roll(rig, 6, 6)  # roll-off: Alice 12, Bob 3, Chloé 7: Bob starts
    roll(rig, 1, 2)
    roll(rig, 3, 4)
    roll(rig, 2, 1)  # Bob: space 3, a Call to All to the right
    press(rig, ButtonName.NO)
    rig.clock.advance(3)
    rig.step()
    play = scene(rig)
    seen = (play.turn_text(), play.prompt.title, play.prompt.lines,
            [play.shown_bulletin(i) for i in range(3)], play.seen_id)
    assert seen[0] == "Bob joue  ·  Alice répond"
    shot = pygame.image.tobytes(rig.display, "RGB")
    session = rig.ctx.referee.session_id
    assert session is not None
    rig.ctx.journal.close()  # the power goes

    journal = Journal.open(path)
    try:
        rig2 = make_rig(journal=journal)
        referee = Referee(journal, default_registry())
        assert isinstance(referee.resume(session), Accepted)
        rig2.ctx.referee = referee
        again = PlayScene(rig2.ctx)
        rig2.loop.switch(again)
        rig2.clock.t = rig.clock.t
        rig2.step()
        assert (again.turn_text(), again.prompt.title, again.prompt.lines,
                [again.shown_bulletin(i) for i in range(3)], again.seen_id) == seen
        assert pygame.image.tobytes(rig2.display, "RGB") == shot
        assert again.anims == {}, "a resume never animates"
    finally:
        journal.close()


# -- every phase, both sizes, both languages ------------------------------------------------------

PHASES: list[tuple[str, dict[str, Any], list[Any]]] = [
    ("roll-off", {}, []),
    ("roll", {"first": 0}, []),
    ("question", {"first": 0}, [(4, 4)]),
    ("call-to-all", {"first": 0}, [(1, 2), "no"]),
    ("bon-mot", {"first": 0}, [(1, 1)]),
    ("doubles", {"first": 0, "pawns": [{"track": "college", "position": 2, "bulletin": 35},
                                       {"track": "university", "position": -1,
                                        "bulletin": 60}, {}]}, [(3, 3)]),
    ("landing", {"first": 0, "board": "free"}, [(2, 3)]),
    ("mini-test-card", {"first": 0, "pawns": [{"track": "university", "position": 1,
                                               "bulletin": 40}, {}, {}]}, [(5, 4)]),
    ("mini-test-question", {"first": 0, "pawns": [{"track": "university", "position": 1,
                                                   "bulletin": 40}, {}, {}]},
     [(5, 4), "c:mini:5-5-5", "yes"]),
    ("draw-card", {"first": 0}, [(2, 2)]),
    ("duo", {"first": 0}, [(2, 3), "yes"]),
    ("choose-series", {"first": 0}, [(5, 5)]),
    ("double-or-quit", {"first": 0}, [(3, 4), "yes"]),
    ("points", {"first": 0}, [(4, 4), "yes"]),
    ("repeat-year", {"first": 0, "pawns": [{"track": "college", "position": 20,
                                            "bulletin": 10}, {}, {}]}, [(6, 1)]),
    ("menu", {"first": 0}, ["menu"]),
    ("infraction", {"first": 0}, ["menu", "infraction"]),
    ("rules", {"first": 0}, ["menu", "rules"]),
]
SHOT_BOARD = board_with(school={2: "bon_mot", 3: "petite_colle call=left", 4: "que_fais_je",
                                5: "duo",
                                7: "quitte_ou_double", 8: "erudition", 10: "carte_blanche"},
                        college={5: "erudition call=right"},
                        university={1: "mini_test"})


#: the longest names the setup keyboard allows (20 characters), one of them a team
LONG = ("Anne-Charlotte Dupré", Seat("Rats de bibliothèque", ("Zoé", "Paul", "Maximilien")),
        "Grégoire Beauregard")


def assert_texts_clear(play: PlayScene, name: str) -> None:
    """The main panel's texts (notices, wrapped title, lines) each have their own room, and
    the buttons and the dice come below them: nothing is drawn over anything else."""
    texts = list(play.text_rects.items())
    theme = play.ctx.theme
    title = play.text_rects.get("title")
    if title is not None:
        rows = wrap(theme, play.prompt.title, play.title_size(), title.width, True)
        assert title.height >= len(rows) * theme.font(play.title_size(), True).get_linesize()
    for i, (a, ra) in enumerate(texts):
        assert play._areas["main"].contains(ra), f"{name}: {a} out of the panel"
        for b, rb in texts[i + 1:]:
            assert not ra.colliderect(rb), f"{name}: {a} over {b}"
    bottom = max((r.bottom for _, r in texts), default=0)
    for b in play.buttons:
        if play.overlay is None:
            assert b.rect.top >= bottom or not any(
                b.rect.colliderect(r) for _, r in texts), f"{name}: {b.key} over the text"
    if play.phase in ("ROLL", "ROLL_OFF") and play.overlay is None:
        assert play.dice.rect.top >= bottom, f"{name}: the dice over the text"


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_phase_fits_the_screen(make_rig: MakeRig, size: tuple[int, int],
                                     language: str) -> None:
    """Every phase, with the longest names the keyboard allows: the titles wrap and what
    follows moves down; buttons stay on screen, apart, and at least 48 px."""
    out = os.environ.get("DR_SHOTS")
    for name, options, steps in PHASES:
        options = {"board": codec.dump(SHOT_BOARD), **options}
        rig, _ = start(make_rig, *LONG, size=size, language=language, **options)
        for step in steps:
            if isinstance(step, tuple):
                roll(rig, *step)
            elif step in ("yes", "no"):
                press(rig, ButtonName.YES if step == "yes" else ButtonName.NO)
            else:
                tap(rig, step)
        if name == "points":
            rig.clock.advance(0.3)
        rig.step()
        play = scene(rig)
        buttons = [b for b in play.buttons if not b.key.startswith("dice:")]
        w, h = size
        screen = pygame.Rect(0, 0, w, h)
        for b in buttons:
            assert screen.contains(b.rect), f"{name}: {b.key} off screen"
            assert min(b.rect.size) >= 48 * w // 800, f"{name}: {b.key} too small {b.rect}"
        for i, a in enumerate(buttons):
            for other in buttons[i + 1:]:
                assert not a.rect.colliderect(other.rect), f"{name}: {a.key} over {other.key}"
        assert play.prompt.title or play.overlay, name
        assert_texts_clear(play, name)
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            pygame.image.save(rig.display, str(Path(out) / f"{name}-{language}-{w}x{h}.png"))


def test_end_screen_shows_winner_and_final_bulletins(make_rig: MakeRig) -> None:
    for size in ((800, 480), (1280, 720)):
        for language in ("fr", "en"):
            rig, _ = start(make_rig, "Alice", "Bob", "Chloé", size=size, language=language,
                           first=0, board=codec.dump(SCHOOL_PC),
                           pawns=[{"track": "university", "position": 1, "bulletin": 70},
                                  {"track": "college", "position": 3, "bulletin": 20},
                                  {"track": "school", "position": 3, "bulletin": 15}])
            roll(rig, 4, 3)
            tap(rig, "c:mini:single")
            press(rig, ButtonName.YES)
            rig.clock.advance(2.0)
            rig.step()
            end = rig.scene
            assert isinstance(end, EndScene)
            rig.clock.advance(0.6)
            rig.step()
            winner = "Alice est Docte Rat !" if language == "fr" else "Alice is Docte Rat!"
            assert winner in rig.text() and "85" in rig.text() and "20" in rig.text()
            assert list(end.number_rects) == [0, 1, 2]  # ranked: university, college, school
            out = os.environ.get("DR_SHOTS")
            if out:
                pygame.image.save(rig.display,
                                  str(Path(out) / f"end-{language}-{size[0]}x{size[1]}.png"))
            if size == (800, 480) and language == "fr":
                tap(rig, "undo")  # a mistaken last answer: back to the question
                assert isinstance(rig.scene, PlayScene)
                assert engine_view(rig)["phase"] == "QUESTION"


def test_six_pawns_and_teams_keep_readable_bulletins(make_rig: MakeRig) -> None:
    names = ["Alice", "Bob", "Chloé", "Denis", "Les Rats de bibliothèque", "Fanny"]
    for size in ((800, 480), (1280, 720)):
        rig, _ = start(make_rig, *names, size=size, first=4, board=codec.dump(SHOT_BOARD),
                       pawns=[{}, {"track": "college", "position": 3, "bulletin": 45}, {}, {},
                              {"track": "university", "position": 2, "bulletin": 74}, {}])
        play = scene(rig)
        rects = list(play.number_rects.values())
        assert len(rects) == 6
        for i, a in enumerate(rects):
            assert a.height >= 22 * size[0] // 800, "Bulletin figures readable from a metre"
            for b in rects[i + 1:]:
                assert not a.colliderect(b)
        assert "74" in rig.text() and "45" in rig.text()
        out = os.environ.get("DR_SHOTS")
        if out:
            pygame.image.save(rig.display,
                              str(Path(out) / f"six-pawns-fr-{size[0]}x{size[1]}.png"))


def test_repeat_year_and_rest_turns_are_told(make_rig: MakeRig) -> None:
    rig, beeps = start(make_rig, "Alice", "Bob", first=0,
                       board=codec.dump(board_with(school={6: "rest"})),
                       pawns=[{"track": "college", "position": 20, "bulletin": 10}, {}])
    roll(rig, 6, 1)  # difference 5: past the College's Exit
    assert bulletin(rig, 0) == 5 and engine_view(rig)["view"]["current"] == 0
    assert "Alice redouble : retour à l'entrée, −5 points, on relance" in rig.text()
    assert "Alice, relancez les dés" in rig.text()
    assert "goal_reached" not in beeps
    roll(rig, 2, 1)  # from the Entrance: one space
    tap(rig, "c:wrong")
    roll(rig, 3, 3)  # Bob: school space 6, a white space
    assert engine_view(rig)["view"]["seats"][1]["rest"] == 1
    assert "repos 1" in rig.text()
    roll(rig, 3, 2)  # Alice again ...
    tap(rig, "c:wrong")
    assert engine_view(rig)["view"]["current"] == 0  # ... and again: Bob rests
    assert "Bob passe son tour" in rig.text()


def test_home_then_resume_brings_the_game_back(make_rig: MakeRig) -> None:
    rig, _ = start(make_rig, "Alice", "Bob", first=0, board=codec.dump(SCHOOL_PC))
    roll(rig, 1, 2)
    press(rig, ButtonName.YES)
    tap(rig, "menu")
    tap(rig, "home")
    assert rig.scene.name == "home"
    tap(rig, "resume")
    rig.step(2)
    play = scene(rig)
    assert play.phase == "ROLL" and play.turn_text() == "Bob joue"
    assert play.shown_bulletin(0) == 5 and play.anims == {}


def test_a_camera_roll_is_confirmed_with_yes_and_played(make_rig: MakeRig) -> None:
    from companion.ui.intents import DiceSettled
    from companion.vision.observation import DiceObservation, DieReading

    rig, beeps = start(make_rig, "Alice", "Bob", first=0, board=codec.dump(SCHOOL_PC))
    rig.ctx.hardware.dice = object()  # a dice worker runs: the DiceInput waits for the camera
    play = scene(rig)
    play.dice.reset("")
    rig.step()
    seen = DiceObservation("pips", (DieReading(2, 100, 100, 0.95, False),
                                    DieReading(3, 300, 120, 0.93, False)), 640, 480)
    rig.loop.dispatch(DiceSettled(seen))
    rig.step()
    assert engine_view(rig)["phase"] == "ROLL", "the players confirm first"
    press(rig, ButtonName.YES)  # accepts the roll (not an answer)
    v = engine_view(rig)
    assert v["phase"] == "QUESTION" and v["view"]["last_roll"] == [2, 3]
    assert beeps == ["roll_accepted"]
    press(rig, ButtonName.YES)  # now YES marks the answer right
    assert bulletin(rig, 0) == 5


def test_a_double_tap_on_a_call_to_all_marks_only_one_person(make_rig: MakeRig) -> None:
    rig, _ = start(make_rig, "Alice", "Bob", "Chloé", first=0,
                   board=codec.dump(board_with(school={3: "petite_colle call=left"})))
    roll(rig, 1, 2)
    tap(rig, "c:wrong")  # Alice missed: Bob answers now
    wrong = rig.scene.buttons.get("c:wrong")
    assert wrong is not None
    rig.clock.advance(0.1)
    rig.tap(wrong.rect.center)  # the same finger bounces on the new screen
    q = engine_view(rig)["view"]["question"]
    assert q["answering"] == 1, "Bob was not marked wrong by Alice's double tap"
    rig.clock.advance(0.5)
    rig.tap(wrong.rect.center)  # a real tap, a moment later
    assert engine_view(rig)["view"]["question"]["answering"] == 2


def test_a_crash_of_the_play_screen_offers_to_continue_the_same_game(
        make_rig: MakeRig, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the screen never loses the game: the failsafe's Continue rebuilds the
    referee from the journal and goes back into the same game, at the same move."""
    from companion.ui.scenes.failsafe import FailsafeScene

    rig, _ = start(make_rig, "Alice", "Bob", first=0, goals=[5, 5, 5])
    roll(rig, 2, 3)
    before = rig.ctx.referee.view()
    crashed: list[bool] = []

    def broken_draw(self: PlayScene, surface: pygame.Surface) -> None:
        if not crashed:
            crashed.append(True)
            raise RuntimeError("a bug in the play screen")
        PlayScene.draw.__wrapped__(self, surface)  # type: ignore[attr-defined]

    original = PlayScene.draw
    broken_draw.__wrapped__ = original  # type: ignore[attr-defined]
    monkeypatch.setattr(PlayScene, "draw", broken_draw)
    rig.step(2)
    assert isinstance(rig.scene, FailsafeScene)
    assert "a bug in the play screen" not in rig.text()
    old_referee = rig.ctx.referee
    rig.tap_button("continue")
    rig.step()
    assert isinstance(rig.scene, PlayScene)
    assert rig.ctx.referee is not old_referee  # rebuilt from the journal
    after = rig.ctx.referee.view()
    assert (after["session"], after["state_id"], after["phase"]) == (
        before["session"], before["state_id"], before["phase"])
    assert "Alice" in rig.text()


# -- the roll-off told in full, teams, the dice's room ----------------------------------------


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_roll_off_shows_every_total_and_why_a_tie_rolls_again(
        make_rig: MakeRig, language: str) -> None:
    rig, _ = start(make_rig, "Alice", "Bob", "Chloé", language=language,
                   board=codec.dump(SCHOOL_PC))
    roll(rig, 2, 3)  # Alice 5
    roll(rig, 1, 4)  # Bob 5
    roll(rig, 6, 6)  # Chloé 12: Alice and Bob tie for the lowest
    ro = engine_view(rig)["view"]["roll_off"]
    assert ro["contenders"] == [0, 1] and ro["totals"] == []
    tie = ("Égalité à 5 entre Alice et Bob : ils relancent" if language == "fr"
           else "Tie at 5 between Alice and Bob: they roll again")
    assert tie in rig.text()
    assert "Chloé" not in scene(rig).prompt.lines[2]  # only the tied players are waited for
    roll(rig, 4, 4)  # Alice 8
    assert tie in rig.text(), "the tie stays explained while they roll again"
    roll(rig, 1, 2)  # Bob 3: Bob starts
    v = engine_view(rig)
    assert v["phase"] == "ROLL" and v["view"]["current"] == 1
    if language == "fr":
        assert "Tirage : Alice 8 · Bob 3" in rig.text()
        assert "Bob commence : plus petit total (3)" in rig.text()
    else:
        assert "Roll-off: Alice 8 · Bob 3" in rig.text()
        assert "Bob starts: lowest total (3)" in rig.text()
    # the next roll: the roll-off summary gives way to what happened
    roll(rig, 1, 1)
    assert "Tirage" not in rig.text() and "Roll-off" not in rig.text()


def test_a_roll_off_without_a_tie_lists_everyone(make_rig: MakeRig) -> None:
    rig, _ = start(make_rig, "Alice", "Bob", "Chloé", board=codec.dump(SCHOOL_PC))
    roll(rig, 6, 6)
    roll(rig, 1, 2)
    roll(rig, 3, 4)
    assert "Tirage : Alice 12 · Bob 3 · Chloé 7" in rig.text()
    assert "Bob commence : plus petit total (3)" in rig.text()
    press(rig, ButtonName.UNDO)  # back to Chloé's roll: no stale summary
    assert engine_view(rig)["phase"] == "ROLL_OFF"
    assert "Tirage" not in rig.text() and "commence :" not in rig.text()


def test_a_team_shows_its_members_on_its_bulletin_and_when_it_answers(
        make_rig: MakeRig) -> None:
    team = Seat("Les Rats", ("Zoé", "Paul"))
    rig, _ = start(make_rig, "Alice", team, "Chloé", first=0,
                   board=codec.dump(board_with(school={3: "petite_colle call=left"})))
    play = scene(rig)
    play.anims.clear()
    rig.step()
    assert "Zoé · Paul" in rig.text()  # on the Bulletin row, while Alice rolls
    roll(rig, 1, 2)
    assert not play.compact
    assert "Zoé · Paul" in rig.text()  # small, under the team's name on its card
    assert play.banner_members() == "", "Alice plays alone: no members in the banner"
    press(rig, ButtonName.NO)  # Call to All: the team answers
    assert play.turn_text() == "Alice joue  ·  Les Rats répond"
    assert play.banner_members() == "Zoé · Paul"
    # the team's figures stay big enough to read from a metre
    assert play.number_rects[1].height >= play.number_rects[0].height * 0.75


def test_six_long_names_and_teams_fit_at_both_sizes(make_rig: MakeRig) -> None:
    out = os.environ.get("DR_SHOTS")
    names: list[str | Seat] = [*LONG, Seat("Les Mousquetaires 22", ("Léa", "Tom")),
                               "Bérénice Montgolfier", "Jean-Baptiste Lamarc"]
    for size in ((800, 480), (1280, 720)):
        for language in ("fr", "en"):
            rig, _ = start(make_rig, *names, size=size, language=language, first=1,
                           board=codec.dump(SHOT_BOARD))
            play = scene(rig)
            assert play.compact
            assert_texts_clear(play, "roll")
            roll(rig, 4, 4)  # the team lands on the Érudition: full Bulletins again
            assert not play.compact
            assert_texts_clear(play, "question")
            rects = list(play.number_rects.values())
            for i, a in enumerate(rects):
                assert a.height >= 22 * size[0] // 800
                for b in rects[i + 1:]:
                    assert not a.colliderect(b)
            assert "Zoé · Paul · Maximilien" in rig.text() and "Léa · Tom" in rig.text()
            if out:
                pygame.image.save(rig.display, str(
                    Path(out) / f"six-long-{language}-{size[0]}x{size[1]}.png"))


def test_points_land_on_full_bulletins_then_the_dice_get_the_room(make_rig: MakeRig) -> None:
    rig, _ = start(make_rig, "Alice", "Bob", first=0, board=codec.dump(SCHOOL_PC))
    play = scene(rig)
    assert play.compact  # Alice rolls: compact Bulletins, wider dice
    wide = play.dice.rect.width
    assert wide >= 0.6 * 800
    assert "Alice" in rig.text() and "Bob" in rig.text() and "/ 25" in rig.text()
    roll(rig, 1, 2)
    assert not play.compact
    press(rig, ButtonName.YES)  # +5 for Alice: Bob rolls next, but the points land first
    assert play.phase == "ROLL" and not play.compact
    assert play.dice.rect.width < wide
    rig.clock.advance(2.5)
    rig.step()
    assert play.compact and play.dice.rect.width == wide
    assert play.shown_bulletin(0) == 5 and "5" in rig.text()
    tap(rig, "dice:key:3")  # the pad still works in the new layout
    tap(rig, "dice:key:4")
    tap(rig, "dice:ok")
    assert engine_view(rig)["view"]["last_roll"] == [3, 4]


def test_the_camera_preview_is_large_with_the_real_dice_reader(make_rig: MakeRig) -> None:
    """The synthetic camera, the real dice worker: at 800x480 the preview with the dice
    outlined is far bigger than the 210x120 it used to be, every Bulletin still shows."""
    import time

    from companion.app import start_dice_worker

    out = os.environ.get("DR_SHOTS")
    rig, _ = start(make_rig, "Alice", "Bob", "Chloé", "Denis", "Emma", "Fanny", first=0,
                   camera=True, board=codec.dump(SCHOOL_PC))
    dice = start_dice_worker(rig.ctx.hardware.worker, rig.events)
    if dice is None:
        pytest.skip("the dice reader needs OpenCV")
    rig.closers.insert(0, dice.stop)
    rig.ctx.hardware.dice = dice
    play = scene(rig)
    play.dice.reset("")
    rig.wait_for_frame()
    assert rig.source is not None
    rig.source.roll([3, 5])
    deadline = time.monotonic() + 15
    while play.dice.phase != "confirm" and time.monotonic() < deadline:
        rig.step()
        time.sleep(0.02)
    rig.step()
    assert play.dice.phase == "confirm", "the dice reader never settled"
    where = play.dice._where
    assert where.width >= 380 and where.height >= 190, where
    boxes = [play.dice.die_box(s.reading) for s in play.dice.slots if s.reading is not None]
    assert len(boxes) == 2 and all(b.width >= 36 for b in boxes), boxes
    assert all(where.contains(b.clip(where)) for b in boxes)
    text = rig.text()
    for name in ("Alice", "Bob", "Chloé", "Denis", "Emma", "Fanny"):
        assert name in text
    assert text.count("/ 25") == 6
    if out:
        pygame.image.save(rig.display, str(Path(out) / "camera-confirm-fr-800x480.png"))
    press(rig, ButtonName.YES)
    assert sorted(engine_view(rig)["view"]["last_roll"]) == [3, 5]
