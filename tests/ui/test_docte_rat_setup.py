"""Le Docte Rat's table setup as a family uses it: taps on the screen (and an on-screen
keyboard), then the referee's live game says who sits where, in which colour, with which
goals, on which board, and who starts."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pygame
import pytest

from companion.config import GamesConfig
from companion.devices.events import ButtonName
from companion.games.docte_rat.engine import PAWN_COLOURS
from companion.ui.scenes import GAME_SCENES
from companion.ui.scenes.docte_rat import open_scene
from companion.ui.scenes.docte_rat.setup import SetupScene
from companion.ui.scenes.home import HomeScene
from companion.ui.theme import MIN_TOUCH, PAWN_RGB
from companion.ui.widgets import rects_overlap

from .conftest import Rig, mean_colour

PLAY_EXISTS = importlib.util.find_spec("companion.ui.scenes.docte_rat.play") is not None


def setup_rig(make_rig, **kw) -> Rig:  # type: ignore[no-untyped-def]
    return make_rig(first=SetupScene, **kw)


def seats(rig: Rig) -> list[dict]:  # type: ignore[type-arg]
    view = rig.ctx.referee.view()
    assert view["session"] is not None, "no game started"
    return list(view["view"]["seats"])


def type_on_screen(rig: Rig, text: str) -> None:
    """Tap the on-screen keys one by one (lower-case keys; the keyboard capitalises)."""
    for char in text:
        rig.tap_button("kb:space" if char == " " else "kb:" + char.lower())


def assert_started(rig: Rig) -> None:
    assert rig.ctx.referee.session_id is not None
    if PLAY_EXISTS:
        assert rig.scene.name == "docte-rat-play"


def test_home_tile_opens_the_setup_and_two_taps_start_a_two_player_game(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(language="fr")
    assert isinstance(rig.scene, HomeScene)
    rig.tap_button("game:docte-rat")
    assert rig.scene.name == "docte-rat-setup"
    assert "Joueur 1" in rig.text() and "Tirage aux dés" in rig.text()
    assert rig.ctx.journal.last_unfinished() is None  # nothing journaled before Start
    rig.tap_button("start")
    assert_started(rig)
    view = rig.ctx.referee.view()
    assert [(s["name"], s["colour"], s["members"]) for s in view["view"]["seats"]] == [
        ("Joueur 1", PAWN_COLOURS[0], []), ("Joueur 2", PAWN_COLOURS[1], [])]
    assert view["view"]["goals"] == [25, 50, 75]
    assert view["view"]["mode"] == "board" and view["view"]["board_is_default"]
    assert view["phase"] == "ROLL_OFF"  # the camera reads who starts
    # the home tile now reopens the game, not a new setup
    assert GAME_SCENES["docte-rat"](rig.ctx).name == "docte-rat-play" if PLAY_EXISTS else True


def test_open_scene_gives_the_setup_without_a_live_game_and_after_one_ended(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig()
    assert open_scene(rig.ctx).name == "docte-rat-setup"
    rig.ctx.referee.start("docte-rat", SetupScene(rig.ctx).table.setup(rig.ctx.tr))
    from companion.ui.scenes.docte_rat import live_game

    assert live_game(rig.ctx)
    rig.ctx.referee.close_session()
    assert not live_game(rig.ctx)
    assert open_scene(rig.ctx).name == "docte-rat-setup"


def test_english_default_names_and_words(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig, language="en")
    text = rig.text()
    for words in ("Player 1", "Player 2", "Full game", "Roll-off", "Standard board", "Start"):
        assert words in text
    rig.tap_button("start")
    assert [s["name"] for s in seats(rig)] == ["Player 1", "Player 2"]


def test_adding_moving_and_removing_pawns_changes_the_seating_order(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig)
    rig.tap_button("add")
    rig.tap_button("add")  # Joueur 1, 2, 3, 4
    rig.tap_button("down:0")  # Joueur 1 moves one seat clockwise
    rig.tap_button("up:3")  # Joueur 4 moves before Joueur 3
    rig.tap_button("remove:1")  # Joueur 1 leaves the table
    assert [b.label for b in rig.scene.buttons if b.key.startswith("name:")] == [
        "Joueur 2", "Joueur 4", "Joueur 3"]
    rig.tap_button("start")
    got = [(s["name"], s["colour"]) for s in seats(rig)]
    assert got == [("Joueur 2", PAWN_COLOURS[1]), ("Joueur 4", PAWN_COLOURS[3]),
                   ("Joueur 3", PAWN_COLOURS[2])]


def test_six_pawns_at_most_and_one_at_least(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig)
    for _ in range(4):
        rig.tap_button("add")
    assert rig.scene.buttons.get("add") is None
    assert len([b for b in rig.scene.buttons if b.key.startswith("name:")]) == 6
    for _ in range(5):
        rig.tap_button("remove:0")
    assert not rig.scene.buttons.get("remove:0").enabled  # type: ignore[union-attr]
    rig.tap_button("remove:0")
    assert "au moins un pion" in rig.text()
    rig.tap_button("start")
    assert [s["name"] for s in seats(rig)] == ["Joueur 6"]
    assert rig.ctx.referee.view()["phase"] == "ROLL"  # a lone pawn skips the roll-off


def test_tapping_the_swatch_gives_the_next_free_colour(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig)
    swatch = rig.scene.buttons.get("colour:0")
    assert swatch is not None
    before = mean_colour(rig.display, swatch.rect.inflate(-12, -12))
    rig.tap_button("colour:0")  # red -> blue is taken by pawn 2 -> green
    after = mean_colour(rig.display, rig.scene.buttons.get("colour:0").rect.inflate(-12, -12))  # type: ignore[union-attr]
    assert before[0] > before[1] + 80  # red on screen
    assert after[1] > after[0] + 50  # now green
    for _ in range(6):  # round the palette: never pawn 2's blue
        rig.tap_button("colour:0")
        assert rig.scene.table.pawns[0].colour != "blue"  # type: ignore[attr-defined]
    rig.tap_button("colour:1")
    rig.tap_button("start")
    colours = [s["colour"] for s in seats(rig)]
    assert len(set(colours)) == 2 and "red" not in colours[1:]
    assert PAWN_RGB.keys() == set(PAWN_COLOURS)


def test_the_on_screen_keyboard_types_a_french_name(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig)
    rig.tap_button("name:0")
    keys = [b for b in rig.scene.buttons if b.key.startswith("kb:")]
    for accent in "éèêàçïô":
        assert rig.scene.buttons.get("kb:" + accent) is not None, accent
    assert {"kb:-", "kb:'", "kb:space", "kb:back", "kb:ok"} <= {b.key for b in keys}
    assert all(b.rect.height >= MIN_TOUCH for b in keys)
    assert not rects_overlap([b.rect for b in keys])
    type_on_screen(rig, "Hélènx")
    rig.tap_button("kb:back")
    rig.tap_button("kb:e")
    type_on_screen(rig, "-zoé d'arc")
    assert "Hélène-Zoé D'arc|" in rig.text()  # capitals at each part, on screen
    rig.tap_button("kb:ok")
    assert rig.scene.buttons.get("name:0").label == "Hélène-Zoé D'arc"  # type: ignore[union-attr]
    # the box's NO button cancels an edit
    rig.tap_button("name:1")
    type_on_screen(rig, "bob")
    rig.buttons.tap(ButtonName.NO)
    rig.step()
    assert rig.scene.buttons.get("name:1").label == "Joueur 2"  # type: ignore[union-attr]
    rig.tap_button("start")
    assert [s["name"] for s in seats(rig)] == ["Hélène-Zoé D'arc", "Joueur 2"]


def test_a_name_already_taken_is_refused_and_an_empty_one_restores_the_default(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig)
    rig.tap_button("name:1")
    type_on_screen(rig, "joueur 1")
    rig.tap_button("kb:ok")
    assert "déjà pris" in rig.text()
    assert rig.scene.buttons.get("kb:ok") is not None  # still typing
    for _ in range(8):
        rig.tap_button("kb:back")
    rig.tap_button("kb:ok")
    assert rig.scene.buttons.get("name:1").label == "Joueur 2"  # type: ignore[union-attr]


def test_a_team_gets_its_members(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig, language="en")
    rig.tap_button("team:1")
    rig.tap_button("kind:team")  # opens the keyboard for the first member
    type_on_screen(rig, "chloé")
    rig.tap_button("kb:ok")
    rig.tap_button("team_ok")  # one member is not a team
    assert "at least two members" in rig.text()
    rig.tap_button("add_member")
    type_on_screen(rig, "bob")
    rig.tap_button("kb:ok")
    rig.tap_button("team_ok")
    name = rig.scene.buttons.get("name:1")
    assert name is not None and name.label == "Team 2" and name.sublabel == "Chloé, Bob"
    rig.tap_button("name:1")
    type_on_screen(rig, "les rats")
    rig.tap_button("kb:ok")
    rig.tap_button("start")
    assert [(s["name"], s["members"]) for s in seats(rig)] == [
        ("Player 1", []), ("Les Rats", ["Chloé", "Bob"])]


def test_custom_goals_reach_the_engine(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig)
    rig.tap_button("opt:length")
    rig.tap_button("pick:custom")
    for _ in range(3):
        rig.tap_button("goal:0:-")  # 25 -> 10
    rig.tap_button("goal:1:+")  # 50 -> 55
    for _ in range(20):
        rig.tap_button("goal:2:-")  # 75 -> 5 at least
    assert "10" in rig.ctx.theme.drawn and "55" in rig.ctx.theme.drawn
    rig.tap_button("start")
    assert rig.ctx.referee.view()["view"]["goals"] == [10, 55, 5]


def test_the_shortened_game_is_the_rulebooks_20_30_40(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig)
    rig.tap_button("opt:length")
    rig.tap_button("pick:short")
    assert "20 · 30 · 40 points" in rig.text()
    rig.tap_button("start")
    assert rig.ctx.referee.view()["view"]["goals"] == [20, 30, 40]


def test_board_free_mode_reaches_the_engine(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig)
    rig.tap_button("opt:board")
    assert rig.scene.buttons.get("pick:file") is None  # no board file in the settings
    rig.tap_button("pick:free")
    assert "Sans plateau" in rig.text()
    rig.tap_button("start")
    assert rig.ctx.referee.view()["view"]["mode"] == "free"


def test_choosing_who_starts_skips_the_roll_off(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig)
    rig.tap_button("add")
    rig.tap_button("opt:first")
    number = rig.scene.table.pawns[1].number  # type: ignore[attr-defined]
    rig.tap_button(f"pick:pawn:{number}")
    assert "Joueur 2 commence" in rig.text()
    rig.tap_button("up:1")  # Joueur 2 moves to the first seat: still the one who starts
    rig.tap_button("start")
    view = rig.ctx.referee.view()
    assert view["phase"] == "ROLL"
    assert view["view"]["seats"][view["view"]["current"]]["name"] == "Joueur 2"


def test_back_and_cancel_close_a_sheet_before_leaving(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig)
    rig.tap_button("opt:length")
    rig.tap_button("cancel")
    assert rig.scene.buttons.get("start") is not None
    rig.tap_button("back")
    assert isinstance(rig.scene, HomeScene)
    assert rig.ctx.referee.session_id is None


def use_board_file(rig: Rig, path: Path) -> None:
    rig.ctx.config = rig.ctx.config.replace(games=GamesConfig(docte_rat_board=str(path)))
    rig.loop.switch(SetupScene(rig.ctx))
    rig.step()


def test_a_bad_board_file_gives_a_message_and_no_game(make_rig, tmp_path) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig, language="en")
    bad = tmp_path / "my-board.txt"
    bad.write_text('board "mine"\ntrack school\nstart\nnonsense_space\n', encoding="utf-8")
    use_board_file(rig, bad)
    assert "Your board" in rig.text()  # the table's board is the default choice
    rig.tap_button("start")
    text = rig.text()
    assert "This board can't be used" in text and "my-board.txt" in text
    assert "Traceback" not in text
    assert rig.scene.name == "docte-rat-setup"
    assert rig.ctx.referee.session_id is None and rig.ctx.journal.last_unfinished() is None
    # a missing file too, then the standard board still starts
    use_board_file(rig, tmp_path / "gone.txt")
    rig.tap_button("start")
    assert "does not exist" in rig.text() and rig.ctx.referee.session_id is None
    rig.tap_button("opt:board")
    rig.tap_button("pick:standard")
    rig.tap_button("start")
    assert rig.ctx.referee.view()["view"]["board_is_default"]


def test_a_good_board_file_is_played(make_rig, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from companion.games.docte_rat.files import board_to_text, default_board

    board = default_board()
    mine = tmp_path / "board.txt"
    text = board_to_text(board).replace("default yes", "default no")
    mine.write_text(text.replace(str(board.name), "Notre plateau"), encoding="utf-8")
    rig = setup_rig(make_rig)
    use_board_file(rig, mine)
    rig.tap_button("start")
    view = rig.ctx.referee.view()["view"]
    assert view["mode"] == "board" and not view["board_is_default"]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_layouts_have_big_separate_buttons_on_every_sheet(make_rig, size, language) -> None:  # type: ignore[no-untyped-def]
    rig = setup_rig(make_rig, size=size, language=language)
    screen = pygame.Rect((0, 0), size)

    def check(where: str) -> None:
        buttons = list(rig.scene.buttons)
        assert buttons, where
        for b in buttons:
            assert b.rect.height >= MIN_TOUCH and b.rect.width >= MIN_TOUCH, (where, b.key)
            assert screen.contains(b.rect), (where, b.key)
        assert not rects_overlap([b.rect for b in buttons]), where

    check("two pawns")
    for _ in range(4):
        rig.tap_button("add")
    rig.tap_button("opt:length")
    rig.tap_button("pick:custom")
    check("six pawns, custom goals")
    rig.tap_button("opt:first")
    check("who starts")
    rig.tap_button("cancel")
    rig.tap_button("team:5")
    rig.tap_button("kind:team")
    check("keyboard")
    type_on_screen(rig, "ana")
    rig.tap_button("kb:ok")
    for name in ("bo", "cy", "di"):
        rig.tap_button("add_member")
        type_on_screen(rig, name)
        rig.tap_button("kb:ok")
    check("team of four")
    rig.tap_button("team_ok")
    assert rig.scene.buttons.get("start") is not None


def test_every_pawn_colour_the_engine_allows_is_drawn_distinctly() -> None:
    from companion.games.docte_rat.engine import PAWN_COLOURS
    from companion.ui import theme as th

    assert set(PAWN_COLOURS) <= set(th.PAWN_RGB)
    drawn = [th.PAWN_RGB[c] for c in PAWN_COLOURS]
    assert len(set(drawn)) == len(drawn)
