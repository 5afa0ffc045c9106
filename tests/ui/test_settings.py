"""The Settings screen driven by taps, as a family would: the language changes the words,
sound off silences the buzzer and the speaker, the buzzer kind applies at once, the screen
turns upside down live (touch follows), the camera source is kept for the next start and
the camera check shows the live picture, a good board file is chosen and a bad one shows
its line-numbered mistake and is not."""

from __future__ import annotations

import os
import shutil
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from companion.config import Config, load_config
from companion.devices.buzzer import PATTERNS, heard
from companion.resources import asset
from companion.ui import theme as th
from companion.ui.scenes.home import HomeScene
from companion.ui.scenes.settings import CameraCheckScene, SettingsScene
from companion.ui.sound import Speaker, open_speaker

from .conftest import Rig, distinct_colours, mean_colour

SHOTS = Path(os.environ.get("SETTINGS_SHOTS", "/tmp/shots-settings"))

BAD_BOARD = """\
board "Notre plateau"
track school
start
petite_colle
eruditon
"""


def saved(config: Config) -> dict:  # type: ignore[type-arg]
    """The config file as the next start will read it."""
    return tomllib.loads(config.path.read_text(encoding="utf-8"))


@pytest.fixture
def settings(make_rig: Callable[..., Rig]) -> Callable[..., Rig]:
    def make(tab: str = "screen", **kwargs: object) -> Rig:
        return make_rig(first=lambda ctx: SettingsScene(ctx, tab=tab), **kwargs)

    return make


@pytest.fixture
def speaker() -> Iterator[Speaker]:
    got = open_speaker(None)
    assert got is not None  # SDL_AUDIODRIVER=dummy (conftest)
    yield got
    got.close()


def buzzer_pin(rig: Rig):  # type: ignore[no-untyped-def]
    return rig.buttons._factory.pin(rig.ctx.config.pins["buzzer"])


def test_home_opens_settings_and_back_returns(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig()
    rig.tap_button("settings")
    assert isinstance(rig.scene, SettingsScene)
    rig.tap_button("back")
    assert isinstance(rig.scene, HomeScene)


def test_language_switch_changes_the_drawn_words_and_is_saved(
    settings: Callable[..., Rig],
) -> None:
    rig = settings()
    assert "Réglages" in rig.text() and "Langue" in rig.text()
    rig.tap_button("lang:en")
    text = rig.text()
    assert "Settings" in text and "Language" in text and "Upside down" in text
    assert "All sound" in text
    assert "Réglages" not in text and "Retourné" not in text
    assert saved(rig.ctx.config)["ui"]["language"] == "en"
    # every tab speaks English now
    for tab, word in (("sound", "Speaker"), ("camera", "Check the camera"), ("board", "Board")):
        rig.tap_button(f"tab:{tab}")
        assert word in rig.text()
        assert "Haut-parleur" not in rig.text() and "Plateau" not in rig.text()
    rig.tap_button("tab:screen")
    rig.tap_button("lang:fr")
    assert "Réglages" in rig.text()


def test_sound_off_silences_buzzer_and_speaker(settings: Callable[..., Rig],
                                               speaker: Speaker) -> None:
    rig = settings("sound")
    rig.ctx.hardware.sound = speaker
    rig.tap_button("buzzer:passive")  # builds a real buzzer on the simulated pin
    buzzer = rig.ctx.hardware.buzzer
    assert buzzer is not None and buzzer.kind == "passive"
    assert buzzer.wait(timeout=2)
    pin = buzzer_pin(rig)

    pin.clear_history()
    speaker.started.clear()
    rig.tap_button("test")  # the first test sound is "roll accepted"
    assert list(speaker.started) == ["roll_accepted"]
    assert buzzer.wait(timeout=2)
    got = heard(pin)
    assert [s.frequency for s in got] == [PATTERNS["roll_accepted"][0][0]]

    rig.tap_button("tab:screen")  # "All sound" is on the General tab
    rig.tap_button("sound:0")
    assert "coupé partout" in rig.text()
    rig.tap_button("tab:sound")
    assert rig.ctx.config.sound.enabled is False
    assert saved(rig.ctx.config)["sound"]["enabled"] is False
    assert not speaker.is_playing
    pin.clear_history()
    speaker.started.clear()
    for _ in range(3):
        rig.tap_button("test")
    assert buzzer.wait(timeout=2)
    assert heard(pin, until=time.monotonic()) == [], "sound off: the buzzer stays silent"
    assert not speaker.started, "sound off: the speaker stays silent"
    assert "ni buzzer ni haut-parleur" in rig.text()

    rig.tap_button("tab:screen")
    rig.tap_button("sound:1")  # back on: a confirmation beep on both
    assert list(speaker.started) == ["roll_accepted"]
    assert buzzer.wait(timeout=2)
    assert len(heard(pin)) == 1


def test_the_speaker_alone_can_be_silenced(settings: Callable[..., Rig],
                                           speaker: Speaker) -> None:
    rig = settings("sound")
    rig.ctx.hardware.sound = speaker
    rig.tap_button("buzzer:passive")
    buzzer = rig.ctx.hardware.buzzer
    assert buzzer is not None and buzzer.wait(timeout=2)
    rig.tap_button("speaker:0")
    assert saved(rig.ctx.config)["sound"]["speaker"] is False
    pin = buzzer_pin(rig)
    pin.clear_history()
    speaker.started.clear()
    rig.tap_button("test")
    assert buzzer.wait(timeout=2)
    assert len(heard(pin)) == 1, "the buzzer still beeps"
    assert not speaker.started, "the speaker is silent"
    rig.tap_button("speaker:1")  # back on: it says so with a sound
    assert list(speaker.started) == ["roll_accepted"]
    # volume: the number on screen, the file and the speaker follow the taps
    rig.tap_button("volume:-")
    rig.tap_button("volume:-")
    assert "Volume : 50 %" in rig.text()
    assert saved(rig.ctx.config)["sound"]["volume"] == 50 and speaker.volume == 50


def test_buzzer_kind_is_saved_and_applies_at_once(settings: Callable[..., Rig]) -> None:
    rig = settings("sound")
    hw = rig.ctx.hardware
    rig.tap_button("buzzer:active")  # already the config's kind: nothing to do
    assert hw.buzzer is None
    rig.tap_button("buzzer:passive")
    assert saved(rig.ctx.config)["devices"]["buzzer"] == "passive"
    assert hw.buzzer_kind == "passive" and hw.buzzer.kind == "passive"
    rig.tap_button("buzzer:none")
    assert saved(rig.ctx.config)["devices"]["buzzer"] == "none"
    assert hw.buzzer_kind == "none"
    pin = buzzer_pin(rig)
    pin.clear_history()
    rig.tap_button("test")
    assert hw.buzzer.wait(timeout=2)
    assert heard(pin, until=time.monotonic()) == []
    # the chosen button is the highlighted one
    assert rig.scene.buttons.get("buzzer:none").selected
    assert not rig.scene.buttons.get("buzzer:active").selected
    # and the next start reads it
    assert load_config(rig.ctx.config.path, env={}).devices.buzzer == "none"


def test_rotation_180_applies_live_and_touch_follows(settings: Callable[..., Rig]) -> None:
    rig = settings()
    w, h = rig.display.get_size()
    rig.tap_button("rotation:180")
    assert rig.loop.rotation == 180 and rig.loop.inputs.rotation == 180
    assert saved(rig.ctx.config)["display"]["rotation"] == 180
    rig.step()

    def physical(rect: pygame.Rect) -> pygame.Rect:
        return pygame.Rect(w - rect.right, h - rect.bottom, rect.width, rect.height)

    rig.clock.advance(1)  # past the tap's flash
    rig.step()

    def swatch(rect: pygame.Rect) -> pygame.Rect:
        """A patch of a button's face beside its label."""
        return pygame.Rect(rect.x + 10, rect.centery - 5, 10, 10)

    # the picture is upside down: the selected "upside down" button (accent) is seen
    # where its rotated rectangle lies on the glass
    chosen = rig.scene.buttons.get("rotation:180").rect
    assert mean_colour(rig.display, physical(swatch(chosen))) == pytest.approx(th.ACCENT, abs=8)
    assert mean_colour(rig.display, swatch(chosen)) != pytest.approx(th.ACCENT, abs=8)
    # a finger on the glass where "Normal" is seen turns the screen back
    normal = physical(rig.scene.buttons.get("rotation:0").rect).center
    finger = pygame.event.Event(pygame.FINGERDOWN, x=normal[0] / w, y=normal[1] / h,
                                touch_id=1, finger_id=0, dx=0.0, dy=0.0, pressure=1.0)
    rig.step(raw=[finger])
    rig.clock.advance(1)
    rig.step()
    assert rig.ctx.config.display.rotation == 0
    assert rig.loop.rotation == 0 and rig.loop.inputs.rotation == 0
    chosen = rig.scene.buttons.get("rotation:0").rect
    assert mean_colour(rig.display, swatch(chosen)) == pytest.approx(th.ACCENT, abs=8)


def test_camera_source_is_kept_for_the_next_start(settings: Callable[..., Rig]) -> None:
    rig = settings("camera")
    rig.tap_button("camera:webcam:1")
    assert saved(rig.ctx.config)["devices"]["camera"] == "webcam:1"
    assert rig.scene.buttons.get("camera:webcam:1").selected
    assert "prochain démarrage" in rig.text()


def test_camera_check_shows_the_live_picture_and_comes_back(
    settings: Callable[..., Rig],
) -> None:
    rig = settings("camera", camera=True)
    rig.tap_button("camera_check")
    assert isinstance(rig.scene, CameraCheckScene)
    rig.wait_for_frame()
    rig.step()
    cam, _ = rig.scene._areas()
    assert distinct_colours(rig.display, cam.inflate(-40, -40)) > 20, "a live picture"
    rig.tap_button("back")
    assert isinstance(rig.scene, SettingsScene) and rig.scene.tab == "camera"


def test_a_good_board_file_is_chosen_and_saved(settings: Callable[..., Rig],
                                               config: Config) -> None:
    folder = config.boards_dir
    assert folder == config.path.parent / "boards"
    folder.mkdir(parents=True, exist_ok=True)
    with asset("docte_rat", "board.txt").open("rb") as src, \
            (folder / "club.txt").open("wb") as dst:
        shutil.copyfileobj(src, dst)
    rig = settings("board")
    assert "club" in [b.label for b in rig.scene.buttons]
    assert str(folder) in rig.text()
    key = next(b.key for b in rig.scene.buttons if b.label == "club")
    rig.tap_button(key)
    assert saved(rig.ctx.config)["games"]["docte_rat_board"] == str(folder / "club.txt")
    assert rig.ctx.config.games.docte_rat_board == str(folder / "club.txt")
    assert "77 cases, vérifié" in rig.text()
    assert rig.scene.buttons.get(key).selected
    # back to the standard board
    rig.tap_button("board:0")
    assert saved(rig.ctx.config)["games"]["docte_rat_board"] == ""


def test_a_bad_board_file_shows_its_line_and_is_not_saved(settings: Callable[..., Rig],
                                                          config: Config) -> None:
    rig = settings()
    rig.tap_button("tab:board")
    assert config.boards_dir.is_dir(), "the Board tab makes the folder it tells about"
    (config.boards_dir / "notre.txt").write_text(BAD_BOARD, encoding="utf-8")
    rig.tap_button("tab:screen")
    rig.tap_button("tab:board")
    key = next(b.key for b in rig.scene.buttons if b.label == "notre")
    rig.tap_button(key)
    text = rig.text()
    assert "notre.txt line 5" in text and "eruditon" in text
    assert "Ce plateau a une erreur" in text
    assert saved(rig.ctx.config)["games"]["docte_rat_board"] == ""
    assert rig.ctx.config.games.docte_rat_board == ""
    assert rig.ctx.toast.error
    assert not rig.scene.buttons.get(key).selected


def test_many_boards_are_paged(settings: Callable[..., Rig], config: Config) -> None:
    config.boards_dir.mkdir(parents=True, exist_ok=True)
    for i in range(8):
        (config.boards_dir / f"b{i}.txt").write_text(BAD_BOARD, encoding="utf-8")
    rig = settings("board")
    labels = [b.label for b in rig.scene.buttons if b.key.startswith("board:")]
    assert len(labels) == 6 and labels[0] == "Plateau standard"
    rig.tap_button("page:+")
    labels = [b.label for b in rig.scene.buttons if b.key.startswith("board:")]
    assert labels == ["b5", "b6", "b7"]
    assert "Page 2 / 2" in rig.text()


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_touch_targets_and_screenshots(settings: Callable[..., Rig], config: Config,
                                       size: tuple[int, int]) -> None:
    config.boards_dir.mkdir(parents=True, exist_ok=True)
    (config.boards_dir / "notre-plateau.txt").write_text(BAD_BOARD, encoding="utf-8")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for language in ("fr", "en"):
        rig = settings(size=size, language=language)
        for tab in ("screen", "sound", "camera", "board"):
            rig.tap_button(f"tab:{tab}")
            if tab == "board":
                rig.tap_button(next(b.key for b in rig.scene.buttons
                                    if b.label == "notre-plateau"))
            rig.clock.advance(10)  # let the flash and toast go: the screen is what we keep
            rig.step()
            scale = size[1] / 480
            for button in rig.scene.buttons:
                assert min(button.rect.size) >= 48 * scale - 1, (tab, button.key, button.rect)
                assert rig.display.get_rect().contains(button.rect), (tab, button.key)
            pygame.image.save(rig.display,
                              str(SHOTS / f"settings-{tab}-{size[0]}x{size[1]}-{language}.png"))
