"""``companion doctor``: check everything the companion needs, one line per check.

    OK   camera: synthetic:0 640x480
    FAIL camera: unknown camera source "foo": ... — fix: set devices.camera in ...
    WARN qr (zxing-cpp): not installed — fix: pip install zxing-cpp

Exit code 0 when nothing FAILed, 1 otherwise. Every check is guarded: the doctor itself
never crashes, whatever state the machine is in.
"""

from __future__ import annotations

import logging
import os
import queue
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from .config import Config, load_config
from .core.errors import CompanionError

log = logging.getLogger(__name__)

APT_DIST_PACKAGES = "/usr/lib/python3/dist-packages"
CAMERA_TIMEOUT = 5.0  # seconds to wait for the first frame


@dataclass(frozen=True)
class Check:
    status: str  # "OK", "WARN" or "FAIL"
    name: str
    detail: str
    fix: str = ""

    def line(self) -> str:
        text = f"{self.status:<4} {self.name}: {self.detail}"
        if self.fix:
            text += f" — fix: {self.fix}"
        return text


def ok(name: str, detail: str) -> Check:
    return Check("OK", name, detail)


def warn(name: str, detail: str, fix: str = "") -> Check:
    return Check("WARN", name, detail, fix)


def fail(name: str, detail: str, fix: str = "") -> Check:
    return Check("FAIL", name, detail, fix)


# -- the checks ----------------------------------------------------------------------------


def check_python() -> Iterator[Check]:
    v = sys.version_info
    text = f"{v.major}.{v.minor}.{v.micro} ({sys.executable})"
    if (v.major, v.minor) < (3, 11):
        yield fail("python", text, "use Python 3.11 or newer (Raspberry Pi OS Bookworm has 3.11)")
    else:
        yield ok("python", text)


def check_config(config: Config) -> Iterator[Check]:
    note = "defaults written now" if config.created else "valid"
    yield ok("config", f"{config.path} ({note}); language {config.ui.language}, "
                       f"rotation {config.display.rotation}")


def check_storage(config: Config) -> Iterator[Check]:
    state = config.state_dir
    try:
        state.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=state, prefix=".doctor-", delete=True) as f:
            f.write(b"ok")
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        yield fail("state dir", f"{state} is not writable ({exc.strerror or exc})",
                   f"create it and give it to this user: sudo install -d -o $USER {state}")
        return
    yield ok("state dir", f"{state} is writable")

    from .session.journal import Journal

    path = config.journal_path
    try:
        journal = Journal.open(path)
    except CompanionError as exc:
        yield fail("journal", str(exc),
                   f"move it aside (mv {path} {path}.broken); a new journal starts on the "
                   "next run and the old file keeps its games")
        return
    try:
        sessions = journal.sessions()
        unfinished = sum(1 for s in sessions if s.status == "playing")
        yield ok("journal", f"{path} ({len(sessions)} sessions, {unfinished} unfinished)")
    except CompanionError as exc:
        yield fail("journal", str(exc),
                   f"move it aside (mv {path} {path}.broken) or keep it for a repair")
    finally:
        journal.close()


def check_display(config: Config) -> Iterator[Check]:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError:
        yield fail("display", "pygame-ce is not installed", "./setup.sh (pip install pygame-ce)")
        return
    wanted = os.environ.get("SDL_VIDEODRIVER", "")
    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error as exc:
        shown = f"SDL_VIDEODRIVER={wanted}" if wanted else "the default video driver"
        yield fail("display", f"pygame cannot open a display with {shown} ({exc})",
                   "on the Pi stop the running service first (sudo systemctl stop companion) "
                   "and run from the console (kmsdrm); headless: SDL_VIDEODRIVER=dummy")
        return
    finally:
        try:
            pygame.display.quit()
        except Exception:
            pass
    size = f"{sizes[0][0]}x{sizes[0][1]}" if sizes else "unknown size"
    if driver == "dummy":
        yield warn("display", f"SDL_VIDEODRIVER=dummy: headless, nothing is shown on a screen "
                              f"(window {config.display.width}x{config.display.height})")
    else:
        yield ok("display", f"{driver} {size}")


def _camera_fix(config: Config, spec_problem: bool = False) -> str:
    if spec_problem:
        return (f"set devices.camera in {config.path} (or COMPANION_CAMERA) to auto, "
                "picamera, webcam, webcam:N, synthetic, a folder of images or a video file")
    return (f"follow the hint above, or choose another source in devices.camera "
            f"({config.path})")


def check_camera(config: Config, spec: str | None = None) -> Iterator[Check]:
    from .devices.frames import open_source

    spec = spec or config.devices.camera
    try:
        source = open_source(spec)
    except CompanionError as exc:
        yield fail("camera", str(exc), _camera_fix(config, spec_problem=True))
        return
    name = getattr(source, "name", spec)
    try:
        source.open()
        frame = None
        deadline = time.monotonic() + CAMERA_TIMEOUT
        while frame is None and time.monotonic() < deadline:
            frame = source.read()
            if frame is None:
                time.sleep(0.05)
    except CompanionError as exc:
        yield fail("camera", f"{name}: {exc}", _camera_fix(config))
        return
    except Exception as exc:
        yield fail("camera", f"{name}: {type(exc).__name__}: {exc}", _camera_fix(config))
        return
    finally:
        try:
            source.close()
        except Exception:
            pass
    if frame is None:
        yield fail("camera", f"{name} gave no picture in {CAMERA_TIMEOUT:.0f} s",
                   "check the cable and the lens cap, then `companion doctor` again")
        return
    h, w = frame.shape[:2]
    yield ok("camera", f"{name} {w}x{h}")


def check_gpio(config: Config) -> Iterator[Check]:
    from .devices.buttons import Buttons
    from .devices.buzzer import BuzzerOut
    from .devices.factory import is_simulated, make_pin_factory, on_raspberry_pi
    from .devices.pins import SHARED_FUNCTION

    kind = config.devices.buttons
    try:
        factory = make_pin_factory(kind)
    except CompanionError as exc:
        yield fail("buttons", f"buttons = {kind}: {exc}",
                   f'on a laptop write buttons = "simulated" in {config.path}')
        return
    pins = config.pins
    simulated = is_simulated(factory)
    what = "simulated (keyboard Y N D U)" if simulated else type(factory).__name__
    pin_text = " ".join(f"{k}=GPIO{pins[k]}" for k in ("yes", "no", "detector", "undo"))
    try:
        try:
            buttons = Buttons(queue.Queue(), pins, factory,
                              bounce_time=config.devices.bounce_time,
                              hold_time=config.devices.hold_time)
            buttons.close()
            if simulated and on_raspberry_pi():
                yield warn("buttons", f"{what}: the real buttons are ignored",
                           f'write buttons = "auto" in {config.path}')
            else:
                yield ok("buttons", f"{what}; {pin_text}")
        except CompanionError as exc:
            yield fail("buttons", str(exc), "check the wiring table in hardware/ and [pins]")
        for key in ("yes", "no", "detector", "undo", "buzzer"):
            if pins[key] in SHARED_FUNCTION:
                yield warn("pins", f"{key} uses GPIO{pins[key]}, also {SHARED_FUNCTION[pins[key]]}",
                           "fine unless an add-on board needs it")
        buzzer_kind = config.devices.buzzer
        try:
            buzzer = BuzzerOut(buzzer_kind, pins["buzzer"], factory)
            buzzer.close()
            if buzzer_kind == "none":
                yield ok("buzzer", "none (silent)")
            else:
                muted = "" if config.sound.enabled else ", muted by [sound] enabled = false"
                yield ok("buzzer", f"{buzzer_kind} on GPIO{pins['buzzer']}{muted}")
        except CompanionError as exc:
            yield fail("buzzer", str(exc), "check the wiring and devices.buzzer")
    finally:
        try:
            factory.close()
        except Exception:
            pass


def check_decoders() -> Iterator[Check]:
    try:
        import zxingcpp  # type: ignore[import-not-found]

        yield ok("qr zxing-cpp", f"zxingcpp {getattr(zxingcpp, '__version__', '')}".strip())
    except Exception:
        yield warn("qr zxing-cpp", "not installed (reads the tags faster)",
                   "pip install zxing-cpp")
    try:
        from pyzbar import pyzbar  # type: ignore[import-not-found]  # noqa: F401

        yield ok("qr pyzbar", "pyzbar and libzbar loaded")
    except ImportError as exc:
        if "zbar" in str(exc).lower() and "pyzbar" not in str(exc).lower():
            yield warn("qr pyzbar", f"libzbar is missing ({exc})", "sudo apt install libzbar0")
        else:
            yield warn("qr pyzbar", "not installed",
                       "pip install pyzbar and sudo apt install libzbar0")
    except Exception as exc:  # pyzbar raises other errors when libzbar cannot load
        yield warn("qr pyzbar", f"libzbar cannot be loaded ({type(exc).__name__}: {exc})",
                   "sudo apt install libzbar0")


def _from_apt(module: Any) -> bool:
    return str(getattr(module, "__file__", "")).startswith(APT_DIST_PACKAGES)


def check_numeric(on_pi: bool | None = None) -> Iterator[Check]:
    if on_pi is None:
        from .devices.factory import on_raspberry_pi

        on_pi = on_raspberry_pi()
    try:
        import numpy
    except ImportError:
        yield fail("numpy", "not installed",
                   "sudo apt install python3-numpy (Pi) or pip install numpy (laptop)")
    else:
        where = "apt" if _from_apt(numpy) else "pip"
        text = f"{numpy.__version__} from {where} ({Path(numpy.__file__).parent})"
        if on_pi and where != "apt":
            yield warn("numpy", text,
                       "picamera2 needs apt's numpy: pip uninstall numpy in the venv "
                       "(created with --system-site-packages; ./setup.sh does it)")
        else:
            yield ok("numpy", text)
    try:
        import cv2
    except ImportError:
        yield fail("opencv", "not installed",
                   "sudo apt install python3-opencv (Pi) or pip install opencv-python-headless")
    else:
        where = "apt" if _from_apt(cv2) else "pip"
        yield ok("opencv", f"{cv2.__version__} from {where}")


def run_checks(config: Config) -> Iterator[Check]:
    steps: list[tuple[str, Callable[[], Iterator[Check]]]] = [
        ("python", check_python),
        ("config", lambda: check_config(config)),
        ("storage", lambda: check_storage(config)),
        ("display", lambda: check_display(config)),
        ("camera", lambda: check_camera(config)),
        ("gpio", lambda: check_gpio(config)),
        ("numpy", check_numeric),
        ("qr", check_decoders),
    ]
    for name, step in steps:
        try:
            yield from step()
        except Exception as exc:  # a check must never take the doctor down
            log.debug("check %s crashed", name, exc_info=True)
            yield fail(name, f"the check itself failed ({type(exc).__name__}: {exc})",
                       "report this with the output of `companion doctor`")


def run_doctor(config: Config | str | Path | None = None, out: TextIO | None = None) -> int:
    """Print one line per check on ``out``; 0 if nothing FAILed, else 1.

    ``config`` is a loaded Config, or a path (None: the default file) to load here, in which
    case a bad config is reported as a FAIL line and the defaults are used for the rest."""
    out = out if out is not None else sys.stdout
    failed = False
    if not isinstance(config, Config):
        where = config
        try:
            config = load_config(where)
        except CompanionError as exc:
            print(fail("config", str(exc), "fix that line, or delete the file to get the "
                                           "defaults back").line(), file=out)
            failed = True
            from .config import config_path, state_dir

            config = Config(path=config_path(where), state_dir=state_dir())
    for check in run_checks(config):
        print(check.line(), file=out, flush=True)
        failed = failed or check.status == "FAIL"
    return 1 if failed else 0
