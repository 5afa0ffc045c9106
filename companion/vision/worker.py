"""The dice worker: the one impure vision module. A daemon thread takes camera frames, feeds
them to a :class:`~companion.vision.settle.SettleDetector` and posts small events on the app's
input queue: :class:`DiceMoving` when motion starts, :class:`DiceRolled` once per settled roll,
:class:`VisionProblem` when the reader fails (once per distinct message while it lasts).

Frames come from either

* a :class:`~companion.devices.worker.CameraWorker` (``camera=``): the worker polls its newest
  frame and skips frames it has seen. It prefers a ``peek()`` method (the newest frame without
  answering the outstanding FrameEvent) when the camera worker has one; otherwise it calls
  ``latest()``, which also lets the camera worker post its next FrameEvent; or
* a :class:`~companion.devices.frames.FrameSource` (``source=``) it opens, reads at ``fps``
  and closes itself (tests, tools, a camera with no preview).

It never raises out of its thread; :meth:`stop` joins within its timeout. numpy and OpenCV are
only needed once frames flow (settle.py imports them lazily).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from companion.core.errors import CompanionError
from companion.vision.settle import (
    DiceMoving,
    DiceRolled,
    Reader,
    Roll,
    SettleConfig,
    SettleDetector,
    VisionProblem,
)

log = logging.getLogger(__name__)

__all__ = ["DiceMoving", "DiceRolled", "DiceWorker", "VisionProblem"]


class DiceWorker:
    """Watches the table on a daemon thread; see the module docstring."""

    def __init__(
        self,
        reader: Reader,
        events: queue.Queue,
        *,
        camera: Any = None,
        source: Any = None,
        config: SettleConfig | None = None,
        fps: float = 30,
        retry_interval: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if (camera is None) == (source is None):
            raise ValueError("give the dice worker either camera= or source=, not both or none")
        if fps <= 0:
            raise ValueError(f"fps must be positive, not {fps!r}")
        self.events = events
        self.camera = camera
        self.source = source
        self.detector = SettleDetector(reader, config)
        self.fps = float(fps)
        self.retry_interval = float(retry_interval)
        self.clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_problem: str | None = None
        self._last_seq = 0
        self.frames = 0  # frames given to the detector
        self.rolls: deque[Roll] = deque(maxlen=100)  # recent rolls (for the doctor and tests)
        self.latencies: deque[float] = deque(maxlen=100)  # dice at rest -> event posted, s
        self.problems = 0

    # -- control ----------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="dice-worker", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2) -> None:
        """Ask the thread to end and wait up to ``timeout`` s (a reader busy on a frame
        finishes that frame first; the thread is a daemon either way)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            if thread.is_alive():
                log.warning("dice worker still busy after %.1f s", timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- the thread -------------------------------------------------------------------------
    def _run(self) -> None:
        period = 1.0 / self.fps
        opened = False
        try:
            while not self._stop.is_set():
                started = self.clock()
                try:
                    if self.source is not None and not opened:
                        self.source.open()
                        opened = True
                    frame = self._next_frame()
                    if frame is not None:
                        self._feed(frame)
                except Exception as err:  # the source or camera failed (reader errors
                    self._report(err)  # are handled in _feed)
                    if self.source is not None:
                        self._close_quietly()
                        opened = False
                        self._stop.wait(self.retry_interval)
                        continue
                self._stop.wait(max(0.0, period - (self.clock() - started)))
        except BaseException:  # pragma: no cover - last line of defence
            log.exception("dice worker crashed")
        finally:
            if self.source is not None:
                self._close_quietly()

    def _next_frame(self) -> Any:
        if self.source is not None:
            return self.source.read()
        peek = getattr(self.camera, "peek", None)
        seq, frame = peek() if callable(peek) else self.camera.latest()
        if frame is None or seq == self._last_seq:
            return None
        self._last_seq = seq
        return frame

    def _feed(self, frame: Any) -> None:
        was_moving = self.detector.moving
        try:
            roll = self.detector.update(frame, self.clock())
        except Exception as err:
            self._report(err, reader=True)
            return
        self.frames += 1
        if self.detector.moving and not was_moving:
            self._post(DiceMoving(self.clock()))
        if roll is not None:
            at = self.clock()
            self.rolls.append(roll)
            self.latencies.append(at - roll.still_since)
            self._post(DiceRolled(roll, at))
        self._last_problem = None

    def _post(self, event: object) -> None:
        try:
            self.events.put_nowait(event)
        except queue.Full:  # a full bounded queue must not kill the worker
            log.warning("input queue full: dropped %s", type(event).__name__)

    def _report(self, err: BaseException, reader: bool = False) -> None:
        if isinstance(err, CompanionError):
            message = str(err)
        elif reader:
            message = f"dice reader failed ({type(err).__name__}: {err})"
        else:
            name = getattr(self.source, "name", "camera")
            message = f"dice worker: {name} failed ({type(err).__name__}: {err})"
        if message == self._last_problem:
            return
        log.warning("%s", message)
        self._last_problem = message
        self.problems += 1
        self._post(VisionProblem(message, self.clock()))

    def _close_quietly(self) -> None:
        try:
            self.source.close()
        except Exception:
            log.exception("closing %s failed", getattr(self.source, "name", "?"))
