"""The config file as the person who built the box meets it: written on first run with
comments, every wrong value explained in one line, environment overrides."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.config import (
    Config,
    DevicesConfig,
    DisplayConfig,
    GamesConfig,
    SoundConfig,
    UIConfig,
    load_config,
    save_setting,
)
from companion.core.errors import ConfigError
from companion.devices.pins import DEFAULT_PINS


def env_for(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        "COMPANION_CONFIG": str(tmp_path / "config.toml"),
        "COMPANION_STATE_DIR": str(tmp_path / "state"),
        **extra,
    }


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_first_run_writes_a_commented_file_that_reads_back_as_the_defaults(tmp_path: Path) -> None:
    config = load_config(env=env_for(tmp_path))
    path = tmp_path / "config.toml"
    assert config.path == path and config.created
    text = path.read_text(encoding="utf-8")
    # every key is explained by a comment somewhere above it in its section
    data = tomllib.loads(text)
    assert set(data) == {"display", "devices", "pins", "sound", "ui", "games"}
    comments = [line for line in text.splitlines() if line.startswith("#")]
    assert len(comments) >= 15
    assert 'language = "fr"' in text and "rotation = 0" in text
    assert data["pins"] == DEFAULT_PINS
    assert config.display == DisplayConfig()
    assert config.devices == DevicesConfig()
    assert config.sound == SoundConfig() and config.ui == UIConfig()
    assert dict(config.pins) == DEFAULT_PINS
    assert config.journal_path == tmp_path / "state" / "journal.sqlite3"
    # the second run reads the same values and does not rewrite the file
    again = load_config(env=env_for(tmp_path))
    assert not again.created
    assert (again.display, again.devices, dict(again.pins)) == (
        config.display, config.devices, dict(config.pins))


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ("[display]\nrotation = 90", "display.rotation = 90 is not allowed; write 0 or 180"),
        ('[display]\nfullscreen = "yes"',
         'display.fullscreen = "yes" is not allowed; write true or false'),
        ("[display]\nfps = 10", "display.fps = 10 is not allowed; write a whole number from 30"),
        ('[display]\nwidth = "800"', 'display.width = "800" is not allowed; write a whole number'),
        ('[devices]\nbuttons = "gpio"',
         'devices.buttons = "gpio" is not allowed; write "auto", "real" or "simulated"'),
        ('[devices]\nbuzzer = "loud"',
         'devices.buzzer = "loud" is not allowed; write "active", "passive" or "none"'),
        ('[devices]\ncamera = ""', 'devices.camera = "" is not allowed; write "auto"'),
        ("[devices]\nbounce_time = -1", "devices.bounce_time = -1 is not allowed; write a number"),
        ('[ui]\nlanguage = "de"', 'ui.language = "de" is not allowed; write "fr" or "en"'),
        ("[sound]\nenabled = 1", "sound.enabled = 1 is not allowed; write true or false"),
        ("[pins]\nyes = 40", "pins.yes = 40 is not allowed; write a BCM GPIO number"),
        ("[devices]\ncamera_rotation = 45", "devices.camera_rotation"),
        ("[pins]\nyes = 27", "pins.yes = 27 is already used by pins.no"),
    ],
)
def test_each_bad_value_gets_one_line_naming_file_key_value_and_fix(
    tmp_path: Path, toml: str, expected: str
) -> None:
    path = write(tmp_path, toml + "\n")
    with pytest.raises(ConfigError) as err:
        load_config(env=env_for(tmp_path))
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    assert expected in message


def test_broken_toml_names_the_line(tmp_path: Path) -> None:
    write(tmp_path, "[display]\nwidth = 800\nheight = \n")
    with pytest.raises(ConfigError) as err:
        load_config(env=env_for(tmp_path))
    assert "line 3" in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("toml", "named"),
    [("[display]\nwidht = 800", "display.widht"), ("[screen]\nwidth = 800", "screen"),
     ("fps = 30", "fps")],
)
def test_unknown_keys_are_refused_not_ignored(tmp_path: Path, toml: str, named: str) -> None:
    write(tmp_path, toml + "\n")
    with pytest.raises(ConfigError, match="unknown key") as err:
        load_config(env=env_for(tmp_path))
    assert named in str(err.value)


def test_environment_overrides_device_choices(tmp_path: Path) -> None:
    config = load_config(env=env_for(
        tmp_path, COMPANION_CAMERA="synthetic:5", COMPANION_BUTTONS="simulated",
        COMPANION_BUZZER="none"))
    assert config.devices.camera == "synthetic:5"
    assert config.devices.buttons == "simulated"
    assert config.devices.buzzer == "none"


def test_a_bad_environment_override_is_one_line_naming_the_variable(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(env=env_for(tmp_path, COMPANION_BUTTONS="gpio"))
    assert str(err.value) == (
        'COMPANION_BUTTONS=gpio is not allowed; write "auto", "real" or "simulated"')


def test_systemd_directories_are_honoured(tmp_path: Path) -> None:
    conf_dir, state_dir = tmp_path / "etc", tmp_path / "var"
    config = load_config(env={"CONFIGURATION_DIRECTORY": str(conf_dir),
                              "STATE_DIRECTORY": f"{state_dir}:{tmp_path / 'other'}"})
    assert config.path == conf_dir / "config.toml" and config.path.is_file()
    assert config.state_dir == state_dir
    # an explicit COMPANION_* variable wins over systemd's
    explicit = load_config(env={"CONFIGURATION_DIRECTORY": str(conf_dir),
                                "STATE_DIRECTORY": str(state_dir),
                                "COMPANION_STATE_DIR": str(tmp_path / "mine")})
    assert explicit.state_dir == tmp_path / "mine"


def test_the_path_argument_wins(tmp_path: Path) -> None:
    chosen = tmp_path / "chosen.toml"
    config = load_config(chosen, env=env_for(tmp_path))
    assert config.path == chosen and chosen.is_file()
    assert not (tmp_path / "config.toml").exists()


def test_a_setting_saved_from_the_screen_keeps_the_comments(tmp_path: Path) -> None:
    config = load_config(env=env_for(tmp_path))
    before = config.path.read_text(encoding="utf-8")
    config = save_setting(config, "ui", "language", "en")
    config = save_setting(config, "sound", "enabled", False)
    assert config.ui.language == "en" and config.sound.enabled is False
    after = config.path.read_text(encoding="utf-8")
    assert 'language = "en"' in after and "enabled = false" in after
    assert [line for line in before.splitlines() if line.startswith("#")] == [
        line for line in after.splitlines() if line.startswith("#")]
    reread = load_config(env=env_for(tmp_path))
    assert reread.ui.language == "en" and reread.sound.enabled is False
    with pytest.raises(ConfigError, match="ui.language"):
        save_setting(config, "ui", "language", "de")


def test_a_missing_key_is_added_to_its_section(tmp_path: Path) -> None:
    write(tmp_path, "[display]\nfps = 60\n\n[sound]\nenabled = true\n")
    config = load_config(env=env_for(tmp_path))
    config = save_setting(config, "ui", "language", "en")
    config = save_setting(config, "display", "rotation", 180)
    data = tomllib.loads(config.path.read_text(encoding="utf-8"))
    assert data["ui"] == {"language": "en"}
    assert data["display"] == {"fps": 60, "rotation": 180}
    assert isinstance(config, Config)


def test_speaker_volume_and_board_file_keys(tmp_path: Path) -> None:
    """The speaker can be silenced apart from the buzzer; a board file is a path or ""."""
    config = load_config(env=env_for(tmp_path))
    text = config.path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data["sound"] == {"enabled": True, "speaker": True, "volume": 70}
    assert data["games"] == {"docte_rat_board": ""}
    assert config.games == GamesConfig() and config.games.docte_rat_board == ""
    assert config.boards_dir == tmp_path / "boards"
    board = str(tmp_path / "boards" / "ours.txt")
    config = save_setting(config, "sound", "speaker", False)
    config = save_setting(config, "sound", "volume", 35)
    config = save_setting(config, "games", "docte_rat_board", board)
    reread = load_config(env=env_for(tmp_path))
    assert reread.sound == SoundConfig(enabled=True, speaker=False, volume=35)
    assert reread.games.docte_rat_board == board
    # comments kept: the [games] section still explains itself
    after = config.path.read_text(encoding="utf-8")
    assert [ln for ln in text.splitlines() if ln.startswith("#")] == [
        ln for ln in after.splitlines() if ln.startswith("#")]


@pytest.mark.parametrize(("toml", "named", "fix"), [
    ("[sound]\nspeaker = 1\n", "sound.speaker = 1", "true or false"),
    ("[sound]\nvolume = 120\n", "sound.volume = 120", "from 0 to 100"),
    ("[games]\ndocte_rat_board = 3\n", "games.docte_rat_board = 3", "path of a board file"),
    ("[games]\nboard = \"x.txt\"\n", "games.board", "known keys"),
])
def test_bad_new_keys_are_explained(tmp_path: Path, toml: str, named: str, fix: str) -> None:
    write(tmp_path, toml)
    with pytest.raises(ConfigError) as err:
        load_config(env=env_for(tmp_path))
    assert named in str(err.value) and fix in str(err.value)


def test_an_old_file_without_games_gets_the_section_when_a_board_is_saved(
    tmp_path: Path,
) -> None:
    write(tmp_path, "[sound]\nenabled = true\n")
    config = load_config(env=env_for(tmp_path))
    assert config.games.docte_rat_board == "" and config.sound.speaker is True
    config = save_setting(config, "games", "docte_rat_board", "/boards/b.txt")
    data = tomllib.loads(config.path.read_text(encoding="utf-8"))
    assert data["games"] == {"docte_rat_board": "/boards/b.txt"}


def test_the_camera_can_be_turned_upright_in_quarter_turns(tmp_path: Path) -> None:
    write(tmp_path, "[devices]\ncamera_rotation = 270\n")
    assert load_config(env=env_for(tmp_path)).devices.camera_rotation == 270
