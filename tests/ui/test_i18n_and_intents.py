"""Words in both languages, and the one mapping from raw inputs to intents."""

from __future__ import annotations

import ast
from pathlib import Path

import pygame
import pytest

import companion.ui
from companion.devices.events import (
    ButtonAction,
    ButtonEvent,
    ButtonName,
    CameraProblem,
    FrameEvent,
)
from companion.ui.i18n import EN, FR, TABLES, Translator, placeholders, t
from companion.ui.intents import (
    Back,
    CameraFailed,
    CameraFrame,
    Hold,
    InputMap,
    Press,
    Quit,
    Release,
    RollRequested,
    Tap,
    to_intent,
)


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    assert set(FR) == set(EN)
    for key in FR:
        assert placeholders(FR[key]) == placeholders(EN[key]), key
        assert FR[key].strip() and EN[key].strip(), key


def test_every_key_the_code_asks_for_exists() -> None:
    """Literal tr("...")/t("...") keys in the UI source are all in the tables."""
    root = Path(companion.ui.__file__).parent
    asked = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                    and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("tr", "t")):
                asked.add(node.args[0].value)
    assert asked, "found no tr() calls: the check is broken"
    assert asked - set(FR) == set()


def test_french_by_default_and_english_on_demand() -> None:
    tr = Translator()
    assert tr.language == "fr"
    assert tr("home.history") == "Historique"
    assert tr("home.game_soon", game="Ratjack").startswith("Ratjack arrive bientôt")
    tr.language = "en"
    assert tr("home.history") == "History"
    assert t("home.soon", "en") == "coming soon"
    assert set(TABLES) == {"fr", "en"}
    with pytest.raises(ValueError):
        tr.language = "de"


def test_french_strings_appear_on_the_home_screen(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(language="fr")
    for word in ("Historique", "Réglages", "bientôt", "OUI", "NON", "DÉTECTEUR", "ANNULER"):
        assert word in rig.ctx.theme.drawn
    english = make_rig(language="en")
    for word in ("History", "Settings", "YES", "NO", "DETECTOR", "UNDO"):
        assert word in english.ctx.theme.drawn
    assert "Historique" not in english.ctx.theme.drawn


def test_device_events_become_intents() -> None:
    inputs = InputMap((800, 480))
    assert to_intent(ButtonEvent(ButtonName.NO, ButtonAction.PRESSED, 0.0), inputs) == Press(
        ButtonName.NO)
    assert to_intent(ButtonEvent(ButtonName.NO, ButtonAction.RELEASED, 0.0), inputs) == Release(
        ButtonName.NO)
    assert to_intent(ButtonEvent(ButtonName.UNDO, ButtonAction.HELD, 0.0), inputs) == Hold(
        ButtonName.UNDO)
    assert to_intent(FrameEvent(7, 640, 480, 0.0), inputs) == CameraFrame(7, 640, 480)
    assert to_intent(CameraProblem("unplugged", 0.0), inputs) == CameraFailed("unplugged")


class Recorder:
    def __init__(self) -> None:
        self.tapped: list[ButtonName] = []
        self.rolls = 0

    def tap(self, name: ButtonName) -> None:
        self.tapped.append(name)

    def roll(self) -> None:
        self.rolls += 1


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def test_keys_in_demo() -> None:
    rec = Recorder()
    inputs = InputMap((800, 480), demo=True, buttons=rec, roll=rec.roll)
    for k in (pygame.K_y, pygame.K_n, pygame.K_d, pygame.K_u, pygame.K_1, pygame.K_4):
        assert to_intent(key(k), inputs) is None  # the key taps the device instead
    assert rec.tapped == [ButtonName.YES, ButtonName.NO, ButtonName.DETECTOR, ButtonName.UNDO,
                          ButtonName.YES, ButtonName.UNDO]
    assert to_intent(key(pygame.K_r), inputs) == RollRequested() and rec.rolls == 1
    assert to_intent(key(pygame.K_ESCAPE), inputs) == Quit()
    assert to_intent(key(pygame.K_q), inputs) == Quit()
    assert to_intent(key(pygame.K_BACKSPACE), inputs) == Back()
    assert to_intent(pygame.event.Event(pygame.QUIT), inputs) == Quit()


def test_keys_with_real_buttons_and_camera_do_not_pretend() -> None:
    inputs = InputMap((800, 480), demo=False, buttons=None, roll=None)
    assert to_intent(key(pygame.K_y), inputs) is None
    assert to_intent(key(pygame.K_r), inputs) is None
    assert to_intent(key(pygame.K_q), inputs) is None
    assert to_intent(key(pygame.K_ESCAPE), inputs) == Back()
    assert to_intent(key(pygame.K_q, pygame.KMOD_LCTRL), inputs) == Quit()


def test_only_the_left_button_taps() -> None:
    inputs = InputMap((800, 480))
    right = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=3, touch=False)
    left = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1, touch=False)
    assert to_intent(right, inputs) is None
    assert to_intent(left, inputs) == Tap((5, 5))
