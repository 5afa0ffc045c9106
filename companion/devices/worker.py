"""The camera worker: a daemon thread that reads a frame source and keeps the newest frame.

It never dies and never raises out of its thread. When the source fails (open or read raises)
it posts a :class:`CameraProblem`, closes the source and tries to open it again every
``retry_interval`` seconds.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import TYPE_CHECKING, Any

from companion.core.errors import CompanionError
from companion.devices.events import CameraProblem, FrameEvent
from companion.devices.frames import FrameSource

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)


def _problem_text(source: FrameSource, err: BaseException) -> str:
    if isinstance(err, CompanionError):  # our own errors already say what to do
        return str(err)
    name = getattr(source, "name", type(source).__name__)
    return f"camera {name} failed ({type(err).__name__}: {err})"


class CameraWorker:
    """Reads ``source`` at up to ``fps`` frames a second on a daemon thread.

    The pixels stay here, in a single lock-protected slot that :meth:`latest` returns; the
    queue only carries small :class:`FrameEvent` notices.

    Flow control: at most one FrameEvent is outstanding at a time. After posting one, the
    worker posts no other until somebody calls :meth:`latest` (which is what a consumer does
    on receiving the event, to get the pixels). So the app's one input queue never fills with
    frame notices, button events never wait behind a backlog of frames, and a slow consumer
    simply skips frames and always gets the newest. A consumer that ignores FrameEvents stops
    further ones until it calls :meth:`latest` again; nothing is lost but stale frames.

    Problems: a :class:`CameraProblem` is posted when opening or reading fails, once per
    distinct message while the failure lasts (not every retry); a good frame resets that.
    """

    def __init__(
        self,
        source: FrameSource,
        events: queue.Queue,
        fps: float = 15,
        retry_interval: float = 3.0,
    ) -> None:
        if fps <= 0:
            raise ValueError(f"fps must be positive, not {fps!r}")
        self.source = source
        self.events = events
        self.fps = float(fps)
        self.retry_interval = float(retry_interval)
        self._lock = threading.Lock()
        self._seq = 0
        self._frame: np.ndarray | None = None
        self._notice_pending = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_problem: str | None = None
        self.problems = 0  # how many CameraProblems were posted (for the doctor and tests)

    # -- control ----------------------------------------------------------------------------
    def start(self) -> None:
        """Start the thread (does nothing if it is already running)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="camera-worker", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2) -> None:
        """Ask the thread to end and wait up to ``timeout`` seconds; it closes the source.

        A source stuck inside a blocking read may outlive the timeout; the thread is a daemon,
        so it cannot keep the app from exiting."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            if thread.is_alive():
                log.warning("camera worker still busy in %s after %.1f s", self.source, timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def latest(self) -> tuple[int, np.ndarray | None]:
        """``(seq, frame)`` of the newest frame (``(0, None)`` before the first). ``seq``
        grows by one per frame, so a consumer can tell whether it has seen this one. Calling
        this answers the outstanding FrameEvent (see the class docstring)."""
        with self._lock:
            self._notice_pending.clear()
            return self._seq, self._frame

    def peek(self) -> tuple[int, np.ndarray | None]:
        """Like :meth:`latest`, but for a second consumer (the dice worker): it does not
        answer the outstanding FrameEvent, so the UI's queue still gets one notice at a
        time."""
        with self._lock:
            return self._seq, self._frame

    # -- the thread -------------------------------------------------------------------------
    def _run(self) -> None:
        opened = False
        period = 1.0 / self.fps
        try:
            while not self._stop.is_set():
                if not opened:
                    try:
                        self.source.open()
                        opened = True
                    except Exception as err:
                        self._report(err)
                        self._close_quietly()
                        self._stop.wait(self.retry_interval)
                        continue
                started = time.monotonic()
                try:
                    frame = self.source.read()
                    if frame is not None:
                        self._check(frame)
                except Exception as err:
                    self._report(err)
                    self._close_quietly()
                    opened = False
                    self._stop.wait(self.retry_interval)
                    continue
                if frame is not None:
                    self._publish(frame)
                self._stop.wait(max(0.0, period - (time.monotonic() - started)))
        except BaseException:  # pragma: no cover - last line of defence, keep the app alive
            log.exception("camera worker crashed")
        finally:
            self._close_quietly()

    def _check(self, frame: Any) -> None:
        shape = getattr(frame, "shape", None)
        dtype = str(getattr(frame, "dtype", ""))
        if shape is None or len(shape) != 3 or shape[2] != 3 or dtype != "uint8":
            name = getattr(self.source, "name", "?")
            raise ValueError(
                f"camera {name} gave a frame of shape {shape} {dtype}, expected H x W x 3 uint8"
            )

    def _publish(self, frame: np.ndarray) -> None:
        height, width = frame.shape[:2]
        with self._lock:
            self._seq += 1
            self._frame = frame
            seq = self._seq
            post = not self._notice_pending.is_set()
            if post:
                self._notice_pending.set()
        self._last_problem = None
        if post:
            self.events.put(FrameEvent(seq, width, height, time.monotonic()))

    def _report(self, err: BaseException) -> None:
        message = _problem_text(self.source, err)
        log.warning("%s", message)
        if message == self._last_problem:
            return
        self._last_problem = message
        self.problems += 1
        try:
            self.events.put(CameraProblem(message, time.monotonic()))
        except Exception:  # a full bounded queue must not kill the worker
            log.exception("could not post a camera problem")

    def _close_quietly(self) -> None:
        try:
            self.source.close()
        except Exception:
            log.exception("closing camera %s failed", getattr(self.source, "name", "?"))
