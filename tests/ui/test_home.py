"""The home screen as a player sees it: four big game buttons, the side buttons, the box's
buttons lighting up, the live camera thumbnail."""

from __future__ import annotations

import pygame
import pytest

from companion.core.engine import Setup
from companion.devices.events import ButtonName, CameraProblem
from companion.games.registry import CATALOGUE
from companion.session.journal import Journal
from companion.ui.scenes.home import HomeScene
from companion.ui.theme import BUTTON_COLOURS, MIN_TOUCH
from companion.ui.widgets import rects_overlap

from .conftest import distinct_colours, mean_colour

TITLES = [g.title for g in CATALOGUE]


def squash(text: str) -> str:
    return "".join(text.split()).replace("\u00a0", "")


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_four_big_separate_game_buttons_fit_the_screen(make_rig, size) -> None:  # type: ignore[no-untyped-def]
    journal = Journal.open(":memory:")
    journal.create_session("docte-rat", Setup.of("Alice", "Bob"))  # adds the Resume button
    rig = make_rig(size=size, journal=journal)
    scene = rig.scene
    assert isinstance(scene, HomeScene)
    games = [b for b in scene.buttons if b.key.startswith("game:")]
    assert [b.label for b in games] == TITLES
    keys = {b.key for b in scene.buttons}
    assert {"resume", "history", "settings", "devices"} <= keys
    screen = pygame.Rect((0, 0), size)
    for b in scene.buttons:
        assert b.rect.width >= MIN_TOUCH and b.rect.height >= MIN_TOUCH, b.key
        assert screen.contains(b.rect), b.key
    for b in games:  # game buttons are the big ones: at least a fifth of the screen height
        assert b.rect.height >= size[1] // 5
    rects = [b.rect for b in scene.buttons] + [scene.strip.rect]
    assert not rects_overlap(rects)


def test_the_game_titles_are_written_on_their_buttons(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig()
    written = squash("".join(rig.ctx.theme.drawn))
    for title in TITLES:
        assert squash(title) in written
    blank = pygame.Surface(rig.display.get_size())
    for b in rig.scene.buttons:
        if b.key.startswith("game:"):
            # a coloured card with text: many colours where the blank screen has one
            assert distinct_colours(rig.display, b.rect) > 8
            assert distinct_colours(blank, b.rect) == 1


def test_games_without_an_engine_say_coming_soon_and_explain_when_tapped(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(language="fr")
    soon = [b.key for b in rig.scene.buttons if b.key.startswith("game:") and not b.enabled]
    assert "game:ratjack" in soon and "game:docte-rat" not in soon  # Le Docte Rat is playable
    assert rig.ctx.theme.drawn.count("bientôt") == len(soon)
    rig.tap_button("game:ratjack")
    assert isinstance(rig.scene, HomeScene)  # nothing crashed, still home
    assert "Ratjack arrive bientôt" in rig.text()

    english = make_rig(language="en")
    assert english.ctx.theme.drawn.count("coming soon") == len(soon)


def light_rect(rig, name: ButtonName) -> pygame.Rect:  # type: ignore[no-untyped-def]
    slot = rig.scene.strip.lights[name]
    return pygame.Rect(slot.x, slot.y, slot.width, slot.width)


def test_pressing_the_simulated_yes_button_lights_its_indicator(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig()
    before = mean_colour(rig.display, light_rect(rig, ButtonName.YES))
    rig.buttons.tap(ButtonName.YES)  # the mock pin goes low then high, through gpiozero
    rig.step()
    lit = mean_colour(rig.display, light_rect(rig, ButtonName.YES))
    assert lit[1] > before[1] + 40, (before, lit)  # much greener
    assert "Dernier bouton : OUI" in rig.text()
    # the others stay dark
    no_before = mean_colour(rig.display, light_rect(rig, ButtonName.NO))
    assert no_before[0] < BUTTON_COLOURS[ButtonName.NO][0] * 0.6
    # a quick tap fades after a moment; holding keeps it lit
    rig.clock.advance(1.0)
    rig.step()
    assert mean_colour(rig.display, light_rect(rig, ButtonName.YES))[1] < lit[1] - 40
    rig.buttons.press(ButtonName.DETECTOR)
    rig.step()
    rig.clock.advance(5.0)
    rig.step()
    held = mean_colour(rig.display, light_rect(rig, ButtonName.DETECTOR))
    rig.buttons.release(ButtonName.DETECTOR)
    rig.step()
    released = mean_colour(rig.display, light_rect(rig, ButtonName.DETECTOR))
    assert held[0] > released[0] + 40


def test_the_camera_thumbnail_shows_the_synthetic_frame(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(camera=True)
    thumb = rig.scene.strip.thumbnail
    empty = distinct_colours(rig.display, thumb)
    rig.wait_for_frame()
    rig.step()
    shown = distinct_colours(rig.display, thumb)
    assert shown > 40 and shown > empty * 4  # a wooden table with dice, not a flat box
    # the wood is warm: more red than blue
    r, _, b = mean_colour(rig.display, thumb.inflate(-8, -8))
    assert r > b + 40
    assert "Caméra : synthetic:1" in rig.text()


def test_a_camera_problem_is_shown_and_the_app_keeps_running(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig()
    rig.events.put(CameraProblem("webcam 0 stopped sending frames: check its USB cable", 0.0))
    rig.step()
    assert isinstance(rig.scene, HomeScene) and rig.loop.running
    assert "webcam 0 stopped sending frames" in rig.text()
    thumb = rig.scene.strip.thumbnail
    border = pygame.Rect(thumb.x, thumb.y + thumb.height // 2, 3, 3)
    r, g, _ = mean_colour(rig.display, border)
    assert r > g + 60  # a red frame around the thumbnail
