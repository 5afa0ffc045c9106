"""The configuration file: one commented TOML file the person who built the box edits.

Where it lives, first match wins:

1. the ``path`` argument (``companion --config FILE``);
2. ``$COMPANION_CONFIG`` (an explicit file path);
3. ``$CONFIGURATION_DIRECTORY/config.toml`` (set by systemd's ``ConfigurationDirectory=``);
4. ``platformdirs.user_config_dir("table-companion")/config.toml``.

On first run the defaults are written there as a commented file. Every wrong value gives
ONE line naming the file, the key, the value and what to write instead; unknown keys are
refused too, so a typo never goes silently ignored.

The state directory (where ``journal.sqlite3`` lives) is ``$COMPANION_STATE_DIR``, else
``$STATE_DIRECTORY`` (systemd's ``StateDirectory=``), else
``platformdirs.user_data_dir("table-companion")``. Explicit ``COMPANION_*`` variables win
over systemd's so a maintainer can point a one-off run elsewhere.

``COMPANION_CAMERA``, ``COMPANION_BUTTONS`` and ``COMPANION_BUZZER`` override the file's
``[devices]`` choices (and command-line flags override those, in app.py).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .core.errors import ConfigError

log = logging.getLogger(__name__)

APP_NAME = "table-companion"
CONFIG_NAME = "config.toml"
JOURNAL_NAME = "journal.sqlite3"
BOARDS_DIR = "boards"

BUTTON_KINDS = ("auto", "real", "simulated")
BUZZER_KINDS = ("active", "passive", "none")
LANGUAGES = ("fr", "en")
PIN_KEYS = ("yes", "no", "detector", "undo", "buzzer")


@dataclass(frozen=True)
class DisplayConfig:
    fullscreen: bool = False
    width: int = 800
    height: int = 480
    rotation: int = 0
    fps: int = 30


@dataclass(frozen=True)
class DevicesConfig:
    buttons: str = "auto"
    buzzer: str = "active"
    camera: str = "auto"
    camera_rotation: int = 0  # degrees clockwise that turn the camera's picture upright
    bounce_time: float = 0.05
    hold_time: float = 1.0


@dataclass(frozen=True)
class SoundConfig:
    enabled: bool = True  # false: total silence (buzzer and speaker)
    speaker: bool = True  # false: the speaker is silent, the buzzer still beeps
    volume: int = 70  # speaker volume, percent


@dataclass(frozen=True)
class GamesConfig:
    docte_rat_board: str = ""  # a board file; "" = the standard board


@dataclass(frozen=True)
class UIConfig:
    language: str = "fr"


def _default_pins() -> Mapping[str, int]:
    from .devices.pins import DEFAULT_PINS

    return MappingProxyType(dict(DEFAULT_PINS))


@dataclass(frozen=True)
class Config:
    """Everything read from the file and the environment, validated."""

    path: Path  # the config file
    state_dir: Path  # where the journal lives
    display: DisplayConfig = field(default_factory=DisplayConfig)
    devices: DevicesConfig = field(default_factory=DevicesConfig)
    pins: Mapping[str, int] = field(default_factory=_default_pins)
    sound: SoundConfig = field(default_factory=SoundConfig)
    ui: UIConfig = field(default_factory=UIConfig)
    games: GamesConfig = field(default_factory=GamesConfig)
    created: bool = False  # True when this load wrote the default file

    @property
    def journal_path(self) -> Path:
        return self.state_dir / JOURNAL_NAME

    @property
    def boards_dir(self) -> Path:
        """Where a table's own board files go: a ``boards`` folder beside the config file."""
        return self.path.parent / BOARDS_DIR

    def replace(self, **changes: Any) -> Config:
        return dataclasses.replace(self, **changes)


# -- locations -------------------------------------------------------------------------


def _first_dir(value: str | None) -> Path | None:
    """systemd may pass several directories separated by ':'; the first is ours."""
    if not value:
        return None
    first = value.split(":")[0].strip()
    return Path(first) if first else None


def config_path(path: str | Path | None = None, env: Mapping[str, str] = os.environ) -> Path:
    if path is not None:
        return Path(path).expanduser()
    if env.get("COMPANION_CONFIG"):
        return Path(env["COMPANION_CONFIG"]).expanduser()
    systemd_dir = _first_dir(env.get("CONFIGURATION_DIRECTORY"))
    if systemd_dir is not None:
        return systemd_dir / CONFIG_NAME
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME)) / CONFIG_NAME


def state_dir(env: Mapping[str, str] = os.environ) -> Path:
    if env.get("COMPANION_STATE_DIR"):
        return Path(env["COMPANION_STATE_DIR"]).expanduser()
    systemd_dir = _first_dir(env.get("STATE_DIRECTORY"))
    if systemd_dir is not None:
        return systemd_dir
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME))


# -- the default file ------------------------------------------------------------------

_TEMPLATE = """\
# Table Companion settings.
# Edit a value, save, and restart the companion (sudo systemctl restart companion).
# Delete this file to get the defaults back: it is rewritten on the next start.
# `companion doctor` checks every value and the devices they name.

[display]
# true: fill the whole screen (the touchscreen on the Pi); false: a window.
fullscreen = {fullscreen}
# Window size in pixels (fullscreen uses the screen's own size). Layouts are made for
# 800 x 480 (the official 7" screen) and 1280 x 720.
width = {width}
height = {height}
# 0, or 180 when the screen is mounted upside down (touch follows the picture).
rotation = {rotation}
# Frames per second of the interface, 30 to 120.
fps = {fps}

[devices]
# GPIO buttons: "auto" (real pins on a Raspberry Pi, simulated elsewhere),
# "real" (always the pins: fails off a Pi) or "simulated" (keyboard Y N D U).
buttons = "{buttons}"
# Buzzer: "active" (beeps by itself when powered), "passive" (needs a tone) or "none".
buzzer = "{buzzer}"
# Camera: "auto" (Pi camera, else the first webcam), "picamera", "webcam" or "webcam:1",
# "synthetic" (drawn dice, for trying things out), a folder of photos or a video file.
camera = "{camera}"
# Degrees (0, 90, 180 or 270, clockwise) that turn the camera's picture upright: the table's
# far side at the top, as a player sitting by the camera sees it. The dice reader tells a
# die's top face from its side faces by what lies above it in the picture: a camera mounted
# sideways or upside down needs this.
camera_rotation = {camera_rotation}
# Seconds a button contact must settle before a press counts (against bounce).
bounce_time = {bounce_time}
# Seconds a button must stay pressed to count as "held".
hold_time = {hold_time}

[pins]
# BCM GPIO numbers (the "GPIO17" names, not the physical pin numbers 1-40).
# See hardware/ for the wiring table.
yes = {yes}
no = {no}
detector = {detector}
undo = {undo}
buzzer = {pin_buzzer}

[sound]
# false: total silence (the buzzer and the speaker). To silence only one of them:
# devices.buzzer = "none" silences the buzzer, speaker = false silences the speaker.
enabled = {sound}
# The speaker (HDMI, 3.5 mm jack or USB audio) plays the buzzer's patterns as soft tones.
speaker = {speaker}
# Speaker volume in percent, 0 to 100.
volume = {volume}

[games]
# Le Docte Rat board: "" for the standard board, or the path of a board file (the
# board.txt format; put your own in the "boards" folder beside this file, the Settings
# screen lists them).
docte_rat_board = {docte_rat_board}

[ui]
# Language of the screens: "fr" (the games' own language) or "en".
language = "{language}"
"""


def _toml(value: Any) -> str:
    """A value written the way it would appear in the TOML file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def default_text(pins: Mapping[str, int] | None = None) -> str:
    """The commented default file (what the first run writes)."""
    d, v = DisplayConfig(), DevicesConfig()
    p = dict(pins if pins is not None else _default_pins())
    return _TEMPLATE.format(
        fullscreen=_toml(d.fullscreen),
        width=d.width,
        height=d.height,
        rotation=d.rotation,
        fps=d.fps,
        buttons=v.buttons,
        buzzer=v.buzzer,
        camera=v.camera,
        camera_rotation=v.camera_rotation,
        bounce_time=v.bounce_time,
        hold_time=v.hold_time,
        yes=p["yes"],
        no=p["no"],
        detector=p["detector"],
        undo=p["undo"],
        pin_buzzer=p["buzzer"],
        sound=_toml(SoundConfig().enabled),
        speaker=_toml(SoundConfig().speaker),
        volume=SoundConfig().volume,
        docte_rat_board=_toml(GamesConfig().docte_rat_board),
        language=UIConfig().language,
    )


def write_defaults(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(default_text(), encoding="utf-8")
    os.replace(tmp, path)


# -- validation ------------------------------------------------------------------------


class _Bad(Exception):
    """A value is not allowed; ``args[0]`` says what to write instead."""


def _bool(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    raise _Bad("true or false")


def _int_in(lo: int, hi: int) -> Callable[[Any], int]:
    def check(v: Any) -> int:
        if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi:
            return v
        raise _Bad(f"a whole number from {lo} to {hi}")

    return check


def _one_of(*choices: Any) -> Callable[[Any], Any]:
    def check(v: Any) -> Any:
        if type(v) is type(choices[0]) and v in choices:
            return v
        names = [_toml(c) for c in choices]
        raise _Bad(", ".join(names[:-1]) + " or " + names[-1])

    return check


def _seconds(lo: float, hi: float) -> Callable[[Any], float]:
    def check(v: Any) -> float:
        if isinstance(v, (int, float)) and not isinstance(v, bool) and lo <= v <= hi:
            return float(v)
        raise _Bad(f"a number of seconds from {lo} to {hi}")

    return check


def _source(v: Any) -> str:
    if isinstance(v, str) and v.strip():
        return v.strip()
    raise _Bad('"auto", "picamera", "webcam", "synthetic", a folder or a video file')


def _file_or_empty(v: Any) -> str:
    if isinstance(v, str):
        return v.strip()
    raise _Bad('"" (the standard board) or the path of a board file in quotes')


def _pin(v: Any) -> int:
    if isinstance(v, int) and not isinstance(v, bool) and 2 <= v <= 27:
        return v
    raise _Bad("a BCM GPIO number from 2 to 27, e.g. 17")


_SCHEMA: dict[str, dict[str, Callable[[Any], Any]]] = {
    "display": {
        "fullscreen": _bool,
        "width": _int_in(320, 3840),
        "height": _int_in(240, 2160),
        "rotation": _one_of(0, 180),
        "fps": _int_in(30, 120),
    },
    "devices": {
        "buttons": _one_of(*BUTTON_KINDS),
        "buzzer": _one_of(*BUZZER_KINDS),
        "camera": _source,
        "camera_rotation": _one_of(0, 90, 180, 270),
        "bounce_time": _seconds(0.0, 0.5),
        "hold_time": _seconds(0.2, 10.0),
    },
    "pins": {key: _pin for key in PIN_KEYS},
    "sound": {"enabled": _bool, "speaker": _bool, "volume": _int_in(0, 100)},
    "ui": {"language": _one_of(*LANGUAGES)},
    "games": {"docte_rat_board": _file_or_empty},
}

_ENV_OVERRIDES = {
    "COMPANION_CAMERA": "camera",
    "COMPANION_BUTTONS": "buttons",
    "COMPANION_BUZZER": "buzzer",
}


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a text file; delete it to get the defaults back") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"{path}: not valid TOML: {exc}; fix that line or delete the file to get the "
            "defaults back"
        ) from None


def _validate(path: Path, data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    unknown = []
    for section, values in data.items():
        if section not in _SCHEMA:
            unknown.append(section)
            continue
        if not isinstance(values, dict):
            raise ConfigError(
                f"{path}: {section} = {_toml(values)} is not allowed; write a [{section}] "
                "section instead"
            )
        unknown.extend(f"{section}.{key}" for key in values if key not in _SCHEMA[section])
    if unknown:
        known = ", ".join(f"{s}.{k}" for s, keys in _SCHEMA.items() for k in keys)
        raise ConfigError(
            f"{path}: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
            f"known keys: {known}"
        )
    out: dict[str, dict[str, Any]] = {}
    for section, checks in _SCHEMA.items():
        values = data.get(section, {})
        out[section] = {}
        for key, check in checks.items():
            if key not in values:
                continue
            try:
                out[section][key] = check(values[key])
            except _Bad as bad:
                raise ConfigError(
                    f"{path}: {section}.{key} = {_toml(values[key])} is not allowed; "
                    f"write {bad.args[0]}"
                ) from None
    return out


def load_config(path: str | Path | None = None, env: Mapping[str, str] = os.environ) -> Config:
    """Read (and on first run write) the config file, apply environment overrides.

    Raises ConfigError with a one-line message for any wrong value.
    """
    file = config_path(path, env)
    created = False
    if not file.exists():
        try:
            write_defaults(file)
            created = True
            log.info("wrote the default settings to %s", file)
        except OSError as exc:
            log.warning("could not write the default settings to %s (%s)", file, exc)
    data = _read(file) if file.exists() else {}
    values = _validate(file, data)

    devices = values["devices"]
    for var, key in _ENV_OVERRIDES.items():
        if env.get(var):
            try:
                devices[key] = _SCHEMA["devices"][key](env[var])
            except _Bad as bad:
                raise ConfigError(
                    f"{var}={env[var]} is not allowed; write {bad.args[0]}"
                ) from None

    from .devices.pins import pin_map

    try:
        pins = pin_map(values["pins"])
    except ConfigError as exc:
        raise ConfigError(f"{file}: {exc}") from None

    return Config(
        path=file,
        state_dir=state_dir(env),
        display=DisplayConfig(**values["display"]),
        devices=DevicesConfig(**devices),
        pins=MappingProxyType(dict(pins)),
        sound=SoundConfig(**values["sound"]),
        ui=UIConfig(**values["ui"]),
        games=GamesConfig(**values["games"]),
        created=created,
    )


# -- saving a setting from the Settings screen -----------------------------------------

_SECTION_RE = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]\s*(#.*)?$")


def save_setting(config: Config, section: str, key: str, value: Any) -> Config:
    """Change one value in the file in place (comments and layout kept), return the new
    Config. Raises ConfigError when the value is wrong or the file cannot be written."""
    if section not in _SCHEMA or key not in _SCHEMA[section]:
        raise ConfigError(f"unknown setting {section}.{key}")
    try:
        checked = _SCHEMA[section][key](value)
    except _Bad as bad:
        raise ConfigError(
            f"{config.path}: {section}.{key} = {_toml(value)} is not allowed; write {bad.args[0]}"
        ) from None
    try:
        text = config.path.read_text(encoding="utf-8") if config.path.exists() else ""
    except OSError as exc:
        raise ConfigError(f"{config.path}: cannot be read ({exc.strerror or exc})") from None
    lines = text.splitlines()
    line = f"{key} = {_toml(checked)}"
    key_re = re.compile(rf"^\s*{re.escape(key)}\s*=")
    current, section_end, replaced = None, None, False
    for i, raw in enumerate(lines):
        m = _SECTION_RE.match(raw)
        if m:
            if current == section:
                section_end = i
            current = m.group(1)
            continue
        if current == section and key_re.match(raw):
            lines[i] = line
            replaced = True
            break
    if not replaced:
        if current == section and section_end is None:
            lines.append(line)
        elif section_end is not None:
            lines.insert(section_end, line)
        else:
            lines += ["", f"[{section}]", line]
    new_text = "\n".join(lines) + "\n"
    _validate(config.path, tomllib.loads(new_text))  # never write a file we would refuse
    try:
        tmp = config.path.with_name(config.path.name + ".tmp")
        config.path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(new_text, encoding="utf-8")
        os.replace(tmp, config.path)
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise ConfigError(f"{config.path}: cannot be written ({reason})") from None
    part = getattr(config, section)
    if section == "pins":
        return config.replace(pins=MappingProxyType({**config.pins, key: checked}))
    return config.replace(**{section: dataclasses.replace(part, **{key: checked})})
