"""Resume, History, Settings and the camera & buttons check, driven by taps."""

from __future__ import annotations

import tomllib

import pytest

from companion.core.actions import roll_action
from companion.core.engine import Setup
from companion.devices.events import ButtonName
from companion.games.registry import Registry
from companion.session.journal import Journal
from companion.session.referee import Intent, Referee
from companion.ui.scenes import GAME_SCENES
from companion.ui.scenes.base import Scene
from companion.ui.scenes.devices import DevicesScene
from companion.ui.scenes.failsafe import FailsafeScene
from companion.ui.scenes.history import HistoryScene
from companion.ui.scenes.home import HomeScene
from companion.ui.scenes.resume import ResumeScene
from companion.ui.scenes.settings import SettingsScene
from tests.toygame import RaceGame

from .conftest import distinct_colours


def test_resuming_a_game_this_version_does_not_know_explains_instead_of_crashing(
    make_rig,
) -> None:  # type: ignore[no-untyped-def]
    journal = Journal.open(":memory:")
    sid = journal.create_session("oldgame", Setup.of("Zoé", "Yann"))
    rig = make_rig(journal=journal)
    assert rig.scene.buttons.get("resume") is not None
    assert "oldgame" in rig.text()
    rig.tap_button("resume")
    assert isinstance(rig.scene, ResumeScene)
    assert "ne peut pas être reprise" in rig.text() and "oldgame" in rig.text()
    assert "Zoé, Yann" in rig.text()
    rig.tap_button("abandon")
    assert isinstance(rig.scene, HomeScene)
    assert rig.scene.buttons.get("resume") is None
    assert journal.session(sid).status == "abandoned"
    assert "Partie abandonnée" in rig.text()


def test_resuming_a_known_game_replays_the_journal_and_opens_its_scene(make_rig) -> None:  # type: ignore[no-untyped-def]
    journal = Journal.open(":memory:")
    registry = Registry((RaceGame(),))
    referee = Referee(journal, registry)
    referee.start("race", Setup.of("Ana", "Bo"))
    referee.submit(Intent("action", roll_action([2, 3], 0)))

    opened: list[int] = []

    class RaceScene(Scene):
        name = "race"

        def enter(self) -> None:
            opened.append(self.ctx.referee.state_id)

    rig = make_rig(journal=journal, registry=registry, language="en")
    rig.tap_button("resume")
    assert isinstance(rig.scene, ResumeScene)  # no scene registered: a clear message
    assert "Race to the Goal resumed at move 1" in rig.text()
    assert "coming soon" in rig.text()

    GAME_SCENES["race"] = RaceScene
    try:
        rig.tap_button("back")
        rig.tap_button("resume")
        rig.step()
        assert isinstance(rig.scene, RaceScene)
        assert opened == [1]
    finally:
        del GAME_SCENES["race"]


def test_history_lists_finished_and_abandoned_games_with_their_players(make_rig) -> None:  # type: ignore[no-untyped-def]
    journal = Journal.open(":memory:")
    journal.create_session("docte-rat", Setup.of("Alice", "Bob"))  # still playing: not listed
    done = journal.create_session("ratjack", Setup.of("Denis", "Emma"))
    journal.abandon(done)
    rig = make_rig(journal=journal)
    rig.tap_button("history")
    assert isinstance(rig.scene, HistoryScene)
    text = rig.text()
    assert "Ratjack" in text and "Denis, Emma" in text and "abandonnée" in text
    assert "Alice" not in text


def test_history_pages_through_many_games(make_rig) -> None:  # type: ignore[no-untyped-def]
    journal = Journal.open(":memory:")
    for i in range(12):
        journal.abandon(journal.create_session("ratjack", Setup.of(f"Player{i:02d}")))
    rig = make_rig(journal=journal, first=HistoryScene)
    first_page = rig.text()
    assert "Player11" in first_page and "Player00" not in first_page  # newest first
    rig.tap_button("next")
    rig.tap_button("next")
    rig.tap_button("next")
    assert "Player00" in rig.text()
    assert not rig.scene.buttons.get("next").enabled


def test_an_empty_history_says_so(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(first=HistoryScene, language="en")
    assert "No finished game yet." in rig.text()


def test_settings_switch_language_and_sound_and_keep_them_in_the_file(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(first=SettingsScene)
    assert "Langue" in rig.text()
    rig.tap_button("lang:en")
    assert rig.ctx.tr.language == "en"
    assert "Language" in rig.text() and "Saved to" in rig.text()
    rig.tap_button("sound:0")
    assert rig.ctx.hardware.muted
    data = tomllib.loads(rig.ctx.config.path.read_text(encoding="utf-8"))
    assert data["ui"]["language"] == "en" and data["sound"]["enabled"] is False
    rig.tap_button("back")
    assert isinstance(rig.scene, HomeScene)
    assert "History" in rig.text() and "coming soon" in rig.text()


def test_settings_that_cannot_be_written_are_kept_until_restart(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(first=SettingsScene, language="en")
    blocker = rig.ctx.config.path.parent / "a-file"
    blocker.write_text("not a folder")
    rig.ctx.config = rig.ctx.config.replace(path=blocker / "config.toml")
    rig.tap_button("lang:fr")
    assert rig.ctx.tr.language == "fr" and rig.ctx.config.ui.language == "fr"
    assert "Gardé jusqu'au prochain redémarrage" in rig.text()


def test_the_device_check_shows_the_camera_big_and_counts_presses(make_rig) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(camera=True, first=DevicesScene)
    rig.wait_for_frame()
    rig.buttons.tap(ButtonName.UNDO)
    rig.buttons.tap(ButtonName.UNDO)
    rig.step(2)
    cam, _ = rig.scene._areas()
    assert distinct_colours(rig.display, cam.inflate(-40, -40)) > 40
    assert rig.ctx.status.presses[ButtonName.UNDO] == 2
    assert "2" in rig.ctx.theme.drawn
    assert "synthetic:1" in rig.text()
    before = rig.source.truth
    rig.tap_button("roll")
    assert rig.source.truth != before or len(before) == 2
    assert not isinstance(rig.scene, FailsafeScene)


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("scene", [HistoryScene, SettingsScene, DevicesScene])
def test_every_page_has_big_touch_targets(make_rig, size, scene) -> None:  # type: ignore[no-untyped-def]
    rig = make_rig(size=size, first=scene, camera=scene is DevicesScene)
    for b in rig.scene.buttons:
        assert b.rect.width >= 48 and b.rect.height >= 48, (scene.name, b.key)
