"""The screenshots in README.md, taken from the real screens playing a real (short) game of
Le Docte Rat headless: the home screen, the table setup, a roll read by the real dice reader
from the synthetic camera, the guided phases, and the end screen.

    .venv/bin/python tools/readme_screenshots.py [--out docs/screenshots] [--size 800x480]
                                                 [--language fr]

Every distinct screen is saved as NNN-<screen>.png in a work folder (as
`companion run --demo --screenshots DIR` does); the ones README.md shows are copied to
``--out`` under stable names.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from companion.devices.events import ButtonName  # noqa: E402
from companion.ui.intents import Press, Tap  # noqa: E402
from tools.headless import Headless, headless  # noqa: E402

#: the screens README.md shows (the others stay in the work folder)
README_SHOTS = ("home", "setup", "camera", "question", "end")


def frames(app: Headless, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.loop.step(1 / 30, [])
        time.sleep(1 / 60)


def tap(app: Headless, key: str) -> None:
    button = app.loop.scene.buttons.get(key)
    if button is None:
        keys = ", ".join(b.key for b in app.loop.scene.buttons)
        raise SystemExit(f"no button {key!r} on {app.loop.scene.name}: {keys}")
    app.loop.dispatch(Tap(button.rect.center))
    frames(app, 0.45)  # people read before they tap again (and the double-tap guard agrees)


def press(app: Headless, name: ButtonName) -> None:
    app.loop.dispatch(Press(name))
    frames(app, 0.45)


def save(app: Headless, keep: dict[str, Path], name: str, work: Path) -> None:
    path = work / f"readme-{name}.png"
    pygame.image.save(app.display, str(path))
    keep[name] = path


def play(app: Headless, keep: dict[str, Path], work: Path, seed: int) -> None:
    rng = random.Random(seed)
    seen: set[str] = set()
    for _ in range(400):
        scene = app.loop.scene
        if scene.name == "docte-rat-end":
            save(app, keep, "end", work)
            return
        if scene.name != "docte-rat-play":
            frames(app, 0.5)
            continue
        phase = scene.phase  # type: ignore[attr-defined]
        if phase not in seen:
            seen.add(phase)
            save(app, keep, phase.lower(), work)
        if phase in ("ROLL", "ROLL_OFF"):
            buttons = {b.key for b in scene.buttons}
            if "dice:hand" in buttons:
                tap(app, "dice:hand")
            for _ in range(2):
                tap(app, f"dice:key:{rng.randint(1, 6)}")
            tap(app, "dice:ok")
        elif phase == "QUESTION":
            bonmot = [b.key for b in scene.buttons if b.key.startswith("c:bonmot:")]
            if bonmot and not any(b.selected for b in scene.buttons if b.key in bonmot):
                tap(app, rng.choice(bonmot))
            press(app, ButtonName.YES if rng.random() < 0.7 else ButtonName.NO)
        else:
            choices = [b.key for b in scene.buttons if b.key.startswith("c:") and b.enabled]
            if not choices:
                frames(app, 0.5)
                continue
            tap(app, rng.choice(choices))
    raise SystemExit(f"the game did not end in 400 steps (last phase {phase}, buttons "
                     + ", ".join(b.key for b in app.loop.scene.buttons) + ")")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    ap.add_argument("--size", default="800x480")
    ap.add_argument("--language", default="fr", choices=("fr", "en"))
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    size = tuple(int(v) for v in args.size.split("x"))
    keep: dict[str, Path] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        app = headless(work, (size[0], size[1]), args.language, dice_reader=True,
                       screenshots=work / "all", seed=args.seed)
        try:
            frames(app, 1.0)
            save(app, keep, "home", work)
            tap(app, "game:docte-rat")
            tap(app, "add")
            tap(app, "opt:length")
            tap(app, "pick:short")
            save(app, keep, "setup", work)
            tap(app, "start")
            # the roll-off's first roll, read by the real dice reader from the camera
            app.source.roll([5, 2])
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not app.loop.scene.dice.busy:  # type: ignore[attr-defined]
                frames(app, 0.2)
            frames(app, 0.3)
            save(app, keep, "camera", work)
            press(app, ButtonName.YES)
            play(app, keep, work, args.seed)
            app.loop.flush_screenshot()
            if app.loop.failures:
                raise SystemExit(f"{app.loop.failures} screen failure(s): see the log")
        finally:
            app.close()
        args.out.mkdir(parents=True, exist_ok=True)
        missing = [name for name in README_SHOTS if name not in keep]
        if missing:
            raise SystemExit(f"this game never showed {', '.join(missing)}; try another --seed")
        for name in README_SHOTS:
            shutil.copy(keep[name], args.out / f"{name}-{args.language}.png")
        shown = sorted(p.name for p in (work / "all").glob("*.png"))
        print(f"{len(shown)} screens shown; kept in {args.out}: "
              + ", ".join(f"{n}-{args.language}.png" for n in README_SHOTS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
