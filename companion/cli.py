"""The ``companion`` command: run, replay, doctor, read-dice.

Every CompanionError becomes one line on stderr and exit code 2; nothing prints a traceback
unless COMPANION_DEBUG=1 is set.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .core.errors import CompanionError
from .games.registry import Registry, default_registry

log = logging.getLogger("companion")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table Companion: referee for Le Docte Rat, The Rats in the Walls, "
        "Ratjack and Débrouille-toi!",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--config", type=Path, help="config file (default: the platform's)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="start the companion (touchscreen app)")
    run.add_argument(
        "--demo", action="store_true",
        help="simulated camera and buttons (keys Y N D U, R rolls), in a window",
    )
    run.add_argument(
        "--camera", metavar="SOURCE",
        help="picamera, webcam[:N], synthetic[:SEED], a folder of images or a video file",
    )
    run.add_argument("--fullscreen", action="store_true", help="use the whole screen")
    run.add_argument(
        "--exit-after", type=_seconds, metavar="SECONDS", help="quit after this long (scripts)"
    )
    run.add_argument(
        "--screenshots", type=Path, metavar="DIR", help="save a PNG of every screen shown"
    )

    replay = sub.add_parser(
        "replay", help="apply a JSON-lines event file headless and print the public state"
    )
    replay.add_argument("game", help="game id, e.g. docte-rat")
    replay.add_argument("file", type=Path, help="event file (see docs/events.md); - for stdin")

    sub.add_parser("doctor", help="check camera, buttons, buzzer, display, storage, libraries")

    dice = sub.add_parser(
        "read-dice", help="read the dice in still images",
        description="Read the dice in still images, with the same readers as the live camera.",
        epilog="Exit status: 0 when every image was read, 1 when any image could not be read "
        "(missing, empty, not an image: its line says why, and the other images are still "
        "read), 2 when the readers cannot run (OpenCV missing).",
    )  # fmt: skip
    dice.add_argument(
        "--kind", choices=("pips", "rats"), default="pips",
        help="pips: ordinary dice (default); rats: rat dice (0, 1 or 2 rats)",
    )  # fmt: skip
    dice.add_argument(
        "--json", action="store_true",
        help='one JSON object per image per line: {"image", "dice", "total"} or '
        '{"image", "error"}',
    )  # fmt: skip
    dice.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG...)")
    return parser


def _replay(args: argparse.Namespace, registry: Registry) -> int:
    from .replay import replay_lines

    if str(args.file) == "-":
        lines = sys.stdin.read().splitlines()
    else:
        try:
            lines = args.file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise CompanionError(f"cannot read {args.file}: {exc}") from None
    view = replay_lines(args.game, lines, registry)
    print(json.dumps(view, indent=2, ensure_ascii=False, sort_keys=True))
    return 0


def _run(args: argparse.Namespace) -> int:
    from .app import RunOptions, run

    return run(
        RunOptions(
            demo=args.demo,
            camera=args.camera,
            fullscreen=args.fullscreen,
            exit_after=args.exit_after,
            screenshots=args.screenshots,
            config=args.config,
        )
    )


def _doctor(args: argparse.Namespace) -> int:
    from .config import load_config
    from .doctor import run_doctor

    return run_doctor(load_config(args.config))


def _dice_reader(kind: str) -> Callable[[Any], Any]:
    """``read_pips`` or ``read_rats`` (imported here: they need numpy and OpenCV)."""
    try:
        import cv2  # noqa: F401 (the images are decoded with it)
        import numpy  # noqa: F401

        if kind == "rats":
            from .vision.rats import read_rats

            return read_rats
        from .vision.dice import read_pips

        return read_pips
    except ImportError as exc:
        if exc.name in ("cv2", "numpy"):
            raise CompanionError(
                f"{'OpenCV' if exc.name == 'cv2' else 'numpy'} is missing: run ./setup.sh "
                "(on a Pi it installs python3-opencv and python3-numpy from apt)"
            ) from None
        raise CompanionError(f"the {kind} dice reader is not available ({exc})") from None


def _load_image(name: str) -> Any:
    """The image at ``name`` as BGR pixels; CompanionError saying why it cannot be read."""
    import cv2
    import numpy as np

    path = Path(name)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CompanionError("no such file") from None
    except IsADirectoryError:
        raise CompanionError("a folder, not an image") from None
    except OSError as exc:
        raise CompanionError(f"cannot read the file ({exc.strerror or exc})") from None
    if not data:
        raise CompanionError("the file is empty")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise CompanionError("not an image OpenCV can read (JPEG, PNG, BMP...)")
    return image


def _describe(observation: Any) -> str:
    """``3 + 5 = 8 (die 2 uncertain)``; ``no dice``."""
    values = observation.values()
    if not values:
        return "no dice"
    text = f"{' + '.join(map(str, values))} = {observation.total}"
    doubtful = [str(i) for i, d in enumerate(observation.dice, 1) if d.uncertain]
    if len(doubtful) == 1:
        text += f" (die {doubtful[0]} uncertain)"
    elif doubtful:
        text += f" (dice {', '.join(doubtful[:-1])} and {doubtful[-1]} uncertain)"
    return text


def _read_dice(args: argparse.Namespace) -> int:
    read = _dice_reader(args.kind)
    failed = False
    for name in args.images:
        try:
            observation = read(_load_image(name))
        except Exception as exc:  # one bad image must not stop the others
            failed = True
            message = str(exc) if isinstance(exc, CompanionError) else (
                f"the {args.kind} reader failed ({type(exc).__name__}: {exc})")  # fmt: skip
            line = json.dumps({"image": name, "error": message}, ensure_ascii=False)
            print(line if args.json else f"{name}: error: {message}", flush=True)
            continue
        if args.json:
            print(json.dumps(observation.to_json(name), ensure_ascii=False), flush=True)
        else:
            print(f"{name}: {_describe(observation)}", flush=True)
    return 1 if failed else 0


class _OneLineFormatter(logging.Formatter):
    """Log lines without tracebacks, for commands a person reads in a terminal (replay,
    doctor). ``run`` keeps tracebacks: they go to the system log, never to the screen."""

    def formatException(self, ei: object) -> str:  # noqa: N802 (logging's name)
        return ""

    def format(self, record: logging.LogRecord) -> str:
        record.exc_text = ""
        text = super().format(record)
        return text.rstrip()


def _setup_logging(command: str) -> None:
    level = os.environ.get("COMPANION_LOG", "INFO" if command == "run" else "WARNING")
    handler = logging.StreamHandler()
    fmt = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    debug = bool(os.environ.get("COMPANION_DEBUG"))
    handler.setFormatter(
        logging.Formatter(fmt) if command == "run" or debug else _OneLineFormatter(fmt)
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


def main(argv: Sequence[str] | None = None, registry: Registry | None = None) -> int:
    args = build_parser().parse_args(argv)
    _setup_logging(args.command)
    try:
        if args.command == "replay":
            return _replay(args, registry or default_registry())
        if args.command == "run":
            return _run(args)
        if args.command == "doctor":
            return _doctor(args)
        if args.command == "read-dice":
            return _read_dice(args)
        raise CompanionError(f"unknown command {args.command!r}")  # argparse prevents this
    except CompanionError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if os.environ.get("COMPANION_DEBUG"):
            raise
        log.debug("unexpected error", exc_info=True)
        print(
            f"companion: unexpected error ({type(exc).__name__}: {exc}); "
            "run again with COMPANION_DEBUG=1 for details",
            file=sys.stderr,
        )
        return 1
