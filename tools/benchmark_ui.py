"""How long the touchscreen takes per frame: the Le Docte Rat play screen, the table setup
and the home screen, at 800x480 and 1280x720, with the live camera preview on the synthetic
camera. The UI must keep 30 frames per second on a Raspberry Pi 4, i.e. 33 ms per frame;
this prints milliseconds per frame here (median and 95th percentile) and the headroom left
at an assumed Pi slowdown (``--slowdown``, 4 by default: not measured on a Pi).

    .venv/bin/python tools/benchmark_ui.py [--frames 300] [--slowdown 4]

A "frame" is what the loop does 30 times a second: map the queued inputs, update the scene,
draw it onto the screen surface (no flip: the dummy video driver has no screen).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.core.engine import Setup  # noqa: E402
from tools.headless import headless  # noqa: E402


def first_scene(name: str) -> Any:
    def make(ctx: Any) -> Any:
        if name == "home":
            from companion.ui.scenes.home import HomeScene

            return HomeScene(ctx)
        if name == "setup":
            from companion.ui.scenes.docte_rat.setup import SetupScene

            return SetupScene(ctx)
        from companion.ui.scenes.docte_rat.play import PlayScene

        engine = ctx.registry.get("docte-rat")
        names = ("Alice", "Bob", "Chloé", "Denis", "Emma", "Farid")
        ctx.referee.start("docte-rat", engine.prepare_setup(Setup.of(*names, first=0)))
        return PlayScene(ctx)

    return make


def measure(scene_name: str, size: tuple[int, int], frames: int, tmp: Path) -> list[float]:
    app = headless(tmp, size, first=first_scene(scene_name), dice_reader=True)
    times = []
    try:
        for i in range(frames + 30):
            if i % 45 == 0:
                app.ctx.hardware.roll()  # a new roll to read, outline and scale every 1.5 s
            t0 = time.perf_counter()
            app.loop.step(1 / 30, [])
            times.append(time.perf_counter() - t0)
            time.sleep(max(0.0, 1 / 30 - times[-1]))  # frames arrive at camera speed
    finally:
        app.close()
    return [t * 1000 for t in times[30:]]  # the first frames build layouts and fonts


def journal_writes(tmp: Path, count: int = 200) -> list[float]:
    """Milliseconds per accepted action, journal on disk (WAL, synchronous=FULL): the one
    write the screen waits for (write before show), once per tap, not per frame."""
    from companion.core.actions import roll_action
    from companion.games.registry import default_registry
    from companion.session.journal import Journal
    from companion.session.referee import Intent, Referee

    journal = Journal.open(tmp / "bench-journal.sqlite3")
    registry = default_registry()
    referee = Referee(journal, registry)
    engine = registry.get("docte-rat")
    referee.start("docte-rat", engine.prepare_setup(Setup.of("A", "B", "C", first=0)))
    times = []
    try:
        for i in range(count):
            legal = engine.legal_actions(referee.state)
            if not legal:
                break
            action = legal[0]
            if action.type == "roll":
                action = roll_action([1 + i % 6, 1 + (i * 7) % 6], action.player)
            t0 = time.perf_counter()
            referee.submit(Intent("action", action, referee.state_id))
            times.append((time.perf_counter() - t0) * 1000)
    finally:
        journal.close()
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--slowdown", type=float, default=4.0)
    args = ap.parse_args(argv)
    print(f"{'screen':<32} {'median ms':>9} {'p95 ms':>7} {'max ms':>7} "
          f"{'p95 x' + format(args.slowdown, 'g'):>8} {'30 fps?':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for scene in ("home", "setup", "play (6 pawns, camera)"):
            for size in ((800, 480), (1280, 720)):
                ms = measure(scene.split()[0], size, args.frames, Path(tmp))
                p95 = statistics.quantiles(ms, n=20)[18]
                ok = "yes" if p95 * args.slowdown <= 1000 / 30 else "NO"
                print(f"{scene + ' ' + str(size[0]) + 'x' + str(size[1]):<32} "
                      f"{statistics.median(ms):9.2f} {p95:7.2f} {max(ms):7.2f} "
                      f"{p95 * args.slowdown:8.1f} {ok:>8}", flush=True)
        ms = journal_writes(Path(tmp))
        print(f"\njournal: {len(ms)} actions written before shown: median "
              f"{statistics.median(ms):.2f} ms, p95 {statistics.quantiles(ms, n=20)[18]:.2f} ms "
              "(this disk; an SD card's fsync is slower: not measured on a Pi)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
